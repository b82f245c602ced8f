"""Actions and evaluators: the typed functions agents call and checkpoints run.

* :mod:`.spec`: :class:`Action`, the ``@action`` decorator, :class:`ActionCall` and the
  tool schemas a model sees;
* :mod:`.evaluators`: evaluators, actions that read state and say whether a checkpoint
  holds (``@evaluator``, :class:`EvalResult`, ``&``/``|``/``~``);
* :mod:`.sets`: the action sets a run picks (``marks``, ``a11y``, ``pixels``);
* :mod:`.names`: the stable names task files write (``desktop.file_holds``);
* :mod:`.refs`: resolving and writing references (stable names, ``module:attr``).

The decorators and types a user defines actions with are exported here as well as from
``reefbench``.
"""

from reefbench.actions.evaluators import EvalResult, Evaluator, evaluator
from reefbench.actions.spec import Action, ActionCall, action

__all__ = ["Action", "ActionCall", "EvalResult", "Evaluator", "action", "evaluator"]
