"""Thin Discord adapters: slash commands and components that call the table manager."""
