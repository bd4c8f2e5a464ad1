#!/usr/bin/python3
"""Prints the accessibility tree of a running application (AT-SPI), as screen readers see it:
one JSON object per node with its role, name (a label's: its words), description, depth, and
whether it is sensitive and checked (a menu item chosen, a toggle button pressed: GTK says "pressed").

usage: atspi_tree.py APP-NAME   (DBUS_SESSION_BUS_ADDRESS and DISPLAY of the app's session)
"""
import json
import sys

import pyatspi


def nodes(node, depth=0):
    yield {"role": node.getRoleName(), "name": node.name or "", "description": node.description or "",
           "depth": depth, "sensitive": node.getState().contains(pyatspi.STATE_SENSITIVE),
           "checked": node.getState().contains(pyatspi.STATE_CHECKED) or node.getState().contains(pyatspi.STATE_PRESSED)}
    for child in node:
        if child is not None:
            yield from nodes(child, depth + 1)


def main():
    wanted = sys.argv[1]
    for application in pyatspi.Registry.getDesktop(0):
        if application is not None and application.name == wanted:
            json.dump(list(nodes(application)), sys.stdout)
            return 0
    print(f"no application {wanted!r} on the accessibility bus", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
