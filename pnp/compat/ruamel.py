"""ruamel.yaml's internals, as pnp uses them. Written for ruamel.yaml 0.18 to 0.19 (capped
<0.20), with its C extension ruamel.yaml.clib.

- a node's cached tag text (``node.ctag.trval``): ``node.tag`` rebuilds it on every call;
- the YAML 1.2 resolver's table (``versioned_resolver``) and default tags, looked up once per
  document instead of once per scalar (:class:`FastResolver`): about a third of the time of
  loading a 10,000-card deck.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.tag import Tag

WRITTEN_FOR = ("0.18", "0.19")


def tag_of(node: Node) -> str:
    """A node's tag as text."""
    ctag = node.ctag
    return (ctag.trval or "") if ctag is not None else ""


class FastResolver(VersionedResolver):
    """ruamel's YAML 1.2 resolver with its table looked up once per document, not per scalar,
    and quoted scalars and collections given their default tag at once (the composer asks for
    every node)."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if self.yaml_path_resolvers:
            return super().resolve(kind, value, implicit)
        if kind is ScalarNode:
            if implicit[0]:
                table = self.__dict__.get("_pnp_table")
                if table is None:
                    table = self.__dict__["_pnp_table"] = self.versioned_resolver
                resolvers = table.get(value[0] if value else "", [])
                extra = table.get(None, [])
                for tag, regexp in resolvers + extra if extra else resolvers:
                    if regexp.match(value):
                        return Tag(suffix=tag)
            return self.DEFAULT_SCALAR_TAG
        if kind is MappingNode:
            return self.DEFAULT_MAPPING_TAG
        if kind is SequenceNode:
            return self.DEFAULT_SEQUENCE_TAG
        return super().resolve(kind, value, implicit)
