"""Task composition: subtask templates joined into tasks with one graph evaluator."""

from reefbench.compose.link import compose_task

__all__ = ["compose_task"]
