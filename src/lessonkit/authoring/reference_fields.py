"""The API reference lists a dataclass's undocumented fields once, in the class's signature.

mkdocstrings gives every public name an entry of its own (`show_if_no_docstring`), so that a lesson
can link to any function or class. A dataclass's field without a docstring would get one too: a
heading, a label and a signature that repeat what the class's signature just said (`Option(value:
Any, label: str)`), with nothing under them. On the engines' reference pages those empty entries
were much of the page, and most of its table of contents. This Griffe extension, named in
mkdocs.yml, removes them before the page is written; a field with a docstring keeps its entry.
"""

from __future__ import annotations

from typing import Any

from griffe import Class, Extension, Module, Object


def said_by_the_signature(member: Object, owner: Class) -> bool:
    """A field of a dataclass that has nothing to say beyond its name and type, which the class's
    signature shows."""
    return "dataclass" in owner.labels and member.is_attribute and "instance-attribute" in member.labels and not member.docstring


def classes_in(obj: Module | Class) -> list[Class]:
    found = []
    for member in obj.members.values():
        if member.is_alias or not isinstance(member, (Module, Class)):
            continue
        if isinstance(member, Class):
            found.append(member)
        found += classes_in(member)
    return found


class FieldsInTheSignature(Extension):
    """Drops each dataclass field whose entry would only repeat the class's signature."""

    # On the whole package, after Griffe's own dataclass extension (listed before this one in mkdocs.yml):
    # it labels the dataclasses and makes each one's signature from its fields, removed here after.
    def on_package(self, *, pkg: Module, **kwargs: Any) -> None:
        for owner in classes_in(pkg):
            for name in [name for name, member in owner.members.items() if not member.is_alias and said_by_the_signature(member, owner)]:
                del owner.members[name]
