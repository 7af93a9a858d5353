"""The Activity: a live web table inside Discord, a second front end of the table service
(docs/design/activity.md)."""
