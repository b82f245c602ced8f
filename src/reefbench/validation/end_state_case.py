"""Gate 11: what an earlier step made must still be there at the end.

For a task whose reference solution succeeded, pick one state key that a checkpoint of an
earlier subtask governs and that no later step governs (preferring a key of a checkpoint
that later steps partly supersede, the shape issue 30 found unchecked: ``cmp a b`` and
then an append to ``b``, with ``a`` covered by nothing), undo it (delete the file, flip
the setting back to its value after setup) and judge the end state again: the task must
not succeed.

It is judged inside the oracle's episode, on a fork of its graph evaluator
(:meth:`Episode.judge_end`), instead of in an episode of its own: the key's last
governing step and the last subtask are both past, and the last subtask neither governs
the key nor is the one that made it, so undoing it right before the last subtask or after
it leaves the same end state to judge. One key per task: the rule is per key, so one
undone key proves the end check reads the task's earlier work at all.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass

from reefbench.actions.evaluators import keys_overlap
from reefbench.episodes.episode import Episode
from reefbench.tasks.task import Task

# The kinds of state the case can undo, by state-key kind: files and folders (deleted),
# GSettings and phone settings (set back to their value after setup).
UNDOABLE: tuple[str, ...] = ("file", "gsetting", "phone-setting")


@dataclass(frozen=True)
class Undo:
    """One state key to undo: the checkpoint that answers for it and the key, scoped."""

    node: str
    key: str

    @property
    def env(self) -> str:
        return self.key.partition("|")[0]

    @property
    def kind(self) -> str:
        return self.key.partition("|")[2].partition(":")[0]

    @property
    def what(self) -> str:
        return self.key.partition("|")[2].partition(":")[2]

    def describe(self) -> str:
        if self.kind == "file":
            return f"{self.what.replace('/home/user', '~', 1)} deleted"
        return f"{self.kind} {self.what} set back to its value after setup"


def candidates(task: Task, episode: Episode) -> Iterator[Undo]:
    """The keys the case may undo after ``episode`` (the reference's), best first: keys
    of checkpoints later steps partly supersede, then the others, files before settings,
    in completion order."""
    subtasks = task.metadata.subtasks
    if len(subtasks) < 2:
        return
    graph = episode.graph
    last = set(subtasks[-1].nodes)
    last_keys = [k for n in last for k in task.nodes[n].state_keys()]
    order = graph.completed_order
    responsible = graph.responsible_keys()
    ranked: list[tuple[int, int, int, Undo]] = []
    for position, node in enumerate(order):
        if node in last or node not in responsible:
            continue
        later_keys = [k for n in order[position + 1 :] for k in graph.evaluator(n).state_keys()]
        partly = responsible[node] != graph.evaluator(node).state_keys()
        for key in sorted(responsible[node]):
            undo = Undo(node, key)
            if "|" not in key or undo.kind not in UNDOABLE or undo.env not in episode.envs:
                continue
            if any(keys_overlap(key, k) for k in last_keys + later_keys):
                continue
            rank = (0 if partly else 1, 0 if undo.kind == "file" else 1, position)
            ranked.append((*rank, undo))
    for *_, undo in sorted(ranked, key=lambda r: r[:3]):
        yield undo


def undo(undo: Undo, episode: Episode) -> bool:
    """Undo one key in the episode's environments; False when there is nothing to undo
    (the file is not there, the setting already has its value after setup)."""
    env = episode.envs[undo.env]
    before = episode.state_after_setup.get(undo.env)
    if undo.kind == "file":
        session = getattr(env, "session", None)
        if session is None:  # a device whose files are a dict (the memory suite's)
            files = getattr(env, "files", None)
            if isinstance(files, dict) and undo.what in files:
                del files[undo.what]
                return True
            return False
        path = session.host_path(undo.what)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
            return True
        if path.exists() or path.is_symlink():
            path.unlink()
            return True
        return False
    if undo.kind == "gsetting" and before is not None:
        old = before[1].get(undo.what)
        schema, _, name = undo.what.rpartition("/")
        if (
            old is None
            or env.state_fingerprint([f"gsetting:{undo.what}"]).get(f"gsetting:{undo.what}") == old
        ):
            return False
        done = env.session.run(["gsettings", "set", schema, name, old], timeout=10)  # type: ignore[attr-defined]
        return bool(done.returncode == 0)
    if undo.kind == "phone-setting" and before is not None:
        settings = before[0]
        if undo.what not in settings or env.state.settings.get(undo.what) == settings[undo.what]:  # type: ignore[attr-defined]
            return False
        env.set_setting(undo.what, settings[undo.what])  # type: ignore[attr-defined]
        return True
    return False


def end_state_problems(task: Task, episode: Episode) -> tuple[list[str], str]:
    """Gate 11 after the reference's successful ``episode``: undo one earlier key and
    judge the end again. Returns the problems and what was undone ('' when the task has
    no such key)."""
    for case in candidates(task, episode):
        if not undo(case, episode):
            continue
        judged = episode.judge_end()
        label = f"the reference with {case.describe()} before its last subtask"
        if judged.success:
            return [
                f"{label} still succeeds: no end check holds {case.node}'s {case.kind} {case.what}"
            ], case.describe()
        if judged.error is not None:
            return [f"{label} ended with evaluator_error ({judged.error})"], case.describe()
        return [], case.describe()
    return [], ""
