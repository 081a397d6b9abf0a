"""The YAML files people write for fuda (scenarios, personas): parsed, validated by a pydantic
model, and every mistake reported at its place — ``file:line:col: error[E501]`` with the line and
a caret under the value, or under the key itself when the key is the mistake (a misspelt name)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from ..errors import Diagnostic, FudaError, Span

Model = TypeVar("Model", bound=BaseModel)
Places = dict[tuple[Any, ...], tuple[int, int, int, int]]


class _StrictLoader(yaml.SafeLoader):
    """PyYAML keeps the last of a key written twice in one mapping and drops the first silently: a
    copy-edited scenario would lose the expectation it meant to check. This loader refuses it."""


def _mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: dict[Any, int] = {}
    for k, _ in node.value:
        if not isinstance(k, yaml.ScalarNode) or k.tag == "tag:yaml.org,2002:merge":
            continue
        key = loader.construct_object(k)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (also on line {seen[key]}): the first value would be lost",
                k.start_mark)
        seen[key] = k.start_mark.line + 1
    return loader.construct_mapping(node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)

# Numbers only as written in decimal: YAML 1.1 also reads 010 as 8, 0x14 as 20, 1_0 as 10 and 1:30 as
# 90, so a card named "010" written unquoted would silently become card 8 (and an expectation read
# the same way would still pass). Those forms stay the text written.
_StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_StrictLoader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"),
                                    list("-+0123456789"))
_StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` that refuses a key written twice in one mapping (a YAMLError at the second)."""
    return yaml.load(text, Loader=_StrictLoader)


_WORD_TAGS = ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:null")


def positions(text: str, keys: Places | None = None, words: dict[tuple[Any, ...], str] | None = None) -> Places:
    """(path) → (line, col, end line, end col) of every node of a YAML document; ``keys`` gets the
    places of the mapping keys themselves, ``words`` the text of each unquoted word YAML read as a
    bool or none (`yes`, `off`, `null`), for values that are names (an action, an enum member)."""
    out: Places = {}
    keys = {} if keys is None else keys
    words = {} if words is None else words
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return out

    # each node is walked once: an alias (`*x`) to one walked before — or being walked (`&x [*x]`,
    # a cycle) — gets its place but not its insides, which a "billion laughs" file would multiply
    walked: set[int] = set()

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        out[path] = _place(node)
        if isinstance(node, yaml.ScalarNode) and node.tag in _WORD_TAGS and node.style is None and node.value:
            words[path] = node.value
        if id(node) in walked:
            return
        walked.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if not isinstance(k, yaml.ScalarNode):
                    continue  # a list or mapping as a key: safe_load reports it
                keys[(*path, k.value)] = _place(k)
                walk(v, (*path, k.value))
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                walk(v, (*path, i))

    if root is not None:
        walk(root, ())
    return out


# what YAML 1.1 reads as a bool though it is no true or false: an option's value typed so is kept as
# the word (an enum member named on or off, or a bool option, which reads the word itself)
_BOOL_WORDS = frozenset({"yes", "no", "on", "off"})


def typed_word(text: str, read: Any) -> Any:
    """A value as YAML read it (``read``), or the word ``text`` itself if YAML made a bool of a word
    that is no true or false (`on` names the member on, never the member yes), or none of the word
    null (the member null, Skat's Null game; `~` stays none)."""
    word = text.strip().lower()
    if isinstance(read, bool) and word in _BOOL_WORDS or read is None and word == "null":
        return text.strip()
    return read


def keep_words(loc: Located, data: dict[Any, Any], top: tuple[Any, ...]) -> None:
    """The values directly under ``top`` in ``data`` (read from ``loc``) with each bool YAML read
    from a word other than true or false replaced by that word (``typed_word``)."""
    for path, word in loc.words.items():
        if path[:-1] == top and len(path) == len(top) + 1:
            _put(data, path[len(top):], typed_word(word, yaml.safe_load(word)))   # `false` stays false


def _place(node: Any) -> tuple[int, int, int, int]:
    start, end = node.start_mark, node.end_mark
    return start.line + 1, start.column + 1, end.line + 1, end.column + 1


@dataclass
class Located:
    """A YAML file's text with the place of every value and key, to point errors at them."""
    file: str
    text: str
    pos: Places = field(default_factory=dict)
    keys: Places = field(default_factory=dict)
    words: dict[tuple[Any, ...], str] = field(default_factory=dict)    # unquoted `yes`, `null` … as written

    @classmethod
    def of(cls, file: str, text: str) -> Located:
        keys: Places = {}
        words: dict[tuple[Any, ...], str] = {}
        return cls(file, text, positions(text, keys, words), keys, words)

    def span(self, path: tuple[Any, ...], at_key: bool = False) -> Span:
        p = tuple(path)
        if at_key and p and not isinstance(p[-1], str) and p not in self.keys:     # `on:`, read as true
            p = next((k for k in self.keys if k[:-1] == p[:-1] and _scalar_is(k[-1], p[-1])), p)
        if at_key and p in self.keys:
            line, col, end_line, end_col = self.keys[p]
        else:
            while p and p not in self.pos:
                p = p[:-1]
            line, col, end_line, end_col = self.pos.get(p, (1, 1, 1, 1))
        if end_line != line or end_col <= col:     # a block over several lines: the rest of its first
            lines = self.text.splitlines()
            rest = lines[line - 1][col - 1:] if 0 < line <= len(lines) else ""
            end_col = col + max(len(rest.rstrip()), 1)
        return Span(self.file, line, col, line, end_col)

    def error(self, code: str, msg: str, path: tuple[Any, ...], hint: str | None = None,
              at_key: bool = False) -> FudaError:
        """``at_key``: the mistake is the key at the end of ``path`` (a misspelt name), not its value."""
        return FudaError([Diagnostic(code, msg, self.span(path, at_key), hint)], {self.file: self.text})


def _scalar_is(word: str, value: Any) -> bool:
    """Whether YAML reads the key ``word`` as ``value`` (`on` as true)."""
    try:
        return bool(yaml.safe_load(word) == value)
    except yaml.YAMLError:
        return False


def _put(data: Any, path: tuple[Any, ...], value: Any) -> None:
    """Set the value at ``path`` (keys and list indices), where it is there."""
    for part in path[:-1]:
        if isinstance(data, dict) and part in data or isinstance(data, list) and isinstance(part, int) \
                and 0 <= part < len(data):
            data = data[part]
        else:
            return
    if isinstance(data, dict) and path and path[-1] in data or isinstance(data, list) and path \
            and isinstance(path[-1], int) and 0 <= path[-1] < len(data):
        data[path[-1]] = value


def keys_at(model: type[BaseModel], path: tuple[Any, ...]) -> list[str]:
    """The keys a mapping at ``path`` of a ``model`` file may have (of every shape it may take)."""
    types: list[Any] = [model]
    for part in path:
        types = [inner for t in types for inner in _inside(t, part)]
    return list(dict.fromkeys(k for t in types for m in _shapes(t) for k in m.model_fields))


def _shapes(t: Any) -> list[type[BaseModel]]:
    """The models a type annotation may be (`X | list[str] | None` → X)."""
    if isinstance(t, type) and issubclass(t, BaseModel):
        return [t]
    return [m for a in get_args(t) for m in _shapes(a)] if get_origin(t) in (Union, UnionType) else []


def _inside(t: Any, part: Any) -> list[Any]:
    """The annotations of what lies at ``part`` inside a value of type ``t``."""
    if get_origin(t) in (Union, UnionType):
        return [x for a in get_args(t) for x in _inside(a, part)]
    if isinstance(t, type) and issubclass(t, BaseModel):
        f = t.model_fields.get(part) if isinstance(part, str) else None
        return [] if f is None else [f.annotation]
    args = get_args(t)
    if get_origin(t) is list and isinstance(part, int) and args:
        return [args[0]]
    if get_origin(t) is dict and len(args) == 2:
        return [args[1]]
    return []


_TYPE_TAG = re.compile(r"[A-Z]\w*|\w+\[.*\]|int|str|bool|float|none")


def first_error(e: ValidationError, data: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The mistake to show and its path in the data. Of a value that may take several shapes
    (a list of cards, or ``{top: …, size: …}``), pydantic reports one error per shape, the first
    for the shape least like the value ("should be a valid list" for ``{size: abc}``): the error
    that got furthest into the data is the one meant. Shape names (``list[str]``, ``ZoneSpec``)
    are left out of the path."""
    best: tuple[int, tuple[Any, ...], dict[str, Any]] | None = None
    for err in e.errors():
        path: list[Any] = []
        depth, node = 0, data
        for part in err["loc"]:
            inside = part in node if isinstance(node, dict) else \
                isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
            if inside:
                node, depth = node[part], depth + 1  # type: ignore[index]
            elif isinstance(part, str) and _TYPE_TAG.fullmatch(part):
                continue
            else:
                node = None
            path.append(part)
        if best is None or depth > best[0]:
            best = (depth, tuple(path), dict(err))
    assert best is not None
    return best[1], best[2]


# the hint for a key YAML did not read as a name (`on:` is true)
KEY_NOT_A_NAME = ('YAML reads an unquoted on, off, yes, no, true or false as a bool, null as none and 1 as a '
                  'number, keys too: quote the name ("on": …)')


def parse_yaml(loc: Located, model: type[Model], what: str, not_a_mapping: str,
               key_hint: Callable[[tuple[Any, ...]], str | None] | None = None,
               names: Callable[[tuple[Any, ...]], bool] | None = None) -> Model:
    """The file as ``model`` (a mapping at the top), or E501 at the first mistake. ``key_hint``: a
    hint for an unknown key at this path (a key that is right in another form of the same entry).
    ``names``: the paths whose values are names (actions): an unquoted `yes` or `null` there is the
    word written, not YAML's bool or none."""
    try:
        data = safe_load(loc.text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise FudaError([Diagnostic("E501", f"{what} file is not valid YAML: {getattr(e, 'problem', e)}",
                                    Span(loc.file, line, col, line, col + 1))], {loc.file: loc.text}) from None
    if not isinstance(data, dict):
        raise loc.error("E501", not_a_mapping, ())
    for path, word in loc.words.items():
        if names is not None and names(path):
            _put(data, path, word)
    try:
        return model.model_validate(data)
    except ValidationError as e:
        path, err = first_error(e, data)
        unknown = err["type"] == "extra_forbidden"
        msg = f"unknown key {path[-1]!r}" if unknown else err["msg"].removeprefix("Value error, ")   # a validator's own words
        hint = key_hint(path) if unknown and key_hint is not None else None
        if unknown and hint is None and (keys := keys_at(model, path[:-1])):
            hint = "the keys here: " + ", ".join(keys)
        named = path
        if path and (path[-1] == "[key]" or err["msg"] == "Keys should be strings"):   # read as a bool, none, 1
            path = path[:-1] if path[-1] == "[key]" else path
            named, msg, hint, unknown = path[:-1], "this key is not a name", KEY_NOT_A_NAME, True
        raise loc.error("E501", f"{what} {'.'.join(map(str, named))}: {msg}" if named else f"{what}: {msg}",
                        path, hint, at_key=unknown) from None
