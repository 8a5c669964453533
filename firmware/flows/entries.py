"""Starting an entry (firmware/screens/entries.py): an action's fields asked one at a time
on top of the current screen, from the square menu, the menu or a seat-button screen.

A mixin of `firmware.controller.Controller`.
"""
from __future__ import annotations

from firmware.screens.entries import Entry


class EntryFlow:
    def start_entry(self, kind, root=False, menu=False):
        frame = Entry(kind, root=root, menu=menu)
        frame.reset(self)
        self.stack.append(frame)
        frame.advance(self)
