"""Every statement of a module's syntax tree, nested ones included (tests/house: the imports
and the sizes of the project's code).

An import, a class or a function is a statement, and a statement stands only in another's
body (or its else, finally, except or case branches), never inside an expression: walking
the statements alone finds every one that ast.walk would, without visiting each expression
node."""
import ast

BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def statements(node: ast.AST):
    """`node`'s statements, at any depth, in source order (a handler or a case stands for its branch)."""
    for field in BODIES:
        for child in getattr(node, field, ()):
            yield child
            yield from statements(child)
