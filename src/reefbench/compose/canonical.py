"""A canonical digest of a labelled subtask DAG, to tell composed tasks apart.

Two composed tasks are the same task when their subtask graphs are isomorphic as labelled
graphs, a node's label being its template id and attribute values. Synthesis never puts
two identical subtasks (same label) in one task, and for graphs whose labels are all
distinct the sorted list of labels plus the sorted list of labelled edges *is* a canonical
form: it is exact, with no false merges and no misses, and costs a sort.

For graphs with repeated labels (possible in hand-written tasks) the labels are first
refined Weisfeiler-Lehman style with their in- and out-neighbours' labels until the number
of distinct labels stops growing. The result is still isomorphism-invariant, so isomorphic
tasks always share a digest (duplicates are never missed), though in rare symmetric cases
two different graphs could share one too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any


def node_label(template: str, values: Mapping[str, Any]) -> str:
    """The label of one subtask: template id and its attribute values, order-independent."""
    return template + "\x1f" + json.dumps(values, sort_keys=True, ensure_ascii=False, default=repr)


def canonical_digest(labels: Sequence[str], edges: Sequence[tuple[int, int]]) -> str:
    """Hex digest identifying the labelled DAG up to isomorphism (see module docstring)."""
    current = list(labels)
    if len(set(current)) < len(current):
        current = _refine(current, edges)
    form = [sorted(current), sorted((current[u], current[v]) for u, v in set(edges))]
    text = json.dumps(form, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _refine(labels: list[str], edges: Sequence[tuple[int, int]]) -> list[str]:
    n = len(labels)
    ins: list[list[int]] = [[] for _ in range(n)]
    outs: list[list[int]] = [[] for _ in range(n)]
    for u, v in set(edges):
        outs[u].append(v)
        ins[v].append(u)
    distinct = len(set(labels))
    for _ in range(n):
        refined = []
        for i in range(n):
            signature = json.dumps(
                [labels[i], sorted(labels[u] for u in ins[i]), sorted(labels[v] for v in outs[i])]
            )
            refined.append(hashlib.blake2b(signature.encode("utf-8"), digest_size=16).hexdigest())
        grown = len(set(refined))
        labels = refined
        if grown == distinct:
            break
        distinct = grown
    return labels
