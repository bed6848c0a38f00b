#!/usr/bin/env python3
"""The e2e test's target: a plain X11 text window that writes what it holds to a file.

Usage: target_window.py OUT_FILE [--focus]. Every 100 ms the Text widget's content is written to
OUT_FILE (through a temporary file and a rename, so a reader never sees half of it). --focus makes
the window take the keyboard focus itself once it is shown (X11TyperTest runs it without xdotool or
a window manager); the file is written first only then, so its existence means "ready for keys".
"""
import os
import sys
import tkinter as tk

out = sys.argv[1]
take_focus = "--focus" in sys.argv[2:]
root = tk.Tk(className="dictum-e2e-target")
root.title("dictum-e2e-target")
root.geometry("340x120+24+600")
text = tk.Text(root, font=("DejaVu Sans", 16), wrap="word", undo=False)
text.pack(fill="both", expand=True)
text.focus_set()
last = [None]


def dump():
    content = text.get("1.0", "end-1c")
    if content != last[0]:
        tmp = out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(content)
        os.replace(tmp, out)
        last[0] = content
    root.after(100, dump)


if take_focus:
    root.wait_visibility()
    text.focus_force()
    root.update()
dump()
root.mainloop()
