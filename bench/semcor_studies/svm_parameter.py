"""``--tune-svm``: one of the svm's parameters, of svm or of combo's svm member."""
from __future__ import annotations

from wsd_classic import systems

from .held_out import TASK, compare_settings


def tune_svm(args) -> dict:
    """``--svm-system``'s held-out SemCor accuracy and development F1 for each value of one of
    the svm's parameters (combo: of its svm member's)."""
    parameter, values = parse_parameter_values(args.tune_svm)
    return compare_settings(args, args.svm_system, parameter, {
        f"{value:g}" if isinstance(value, float) else str(value).lower():
            {"params": with_svm_param(args.svm_system, parameter, value)}
        for value in values})


def with_svm_param(name: str, parameter: str, value) -> dict:
    """System ``name``'s task parameters with its svm's (combo: its svm member's) ``parameter``
    set to ``value``."""
    registered = TASK.system_params(name)
    if name == "svm":
        return {**registered, parameter: value}
    members = registered.get("member_params", {})
    return {**registered, "member_params": {
        **members, "svm": {**members.get("svm", {}), parameter: value}}}


def parse_parameter_values(text: str) -> tuple[str, list]:
    """``C=1,3,10`` -> ``("C", [1.0, 3.0, 10.0])``, each value of the parameter's own type."""
    parameter, _, values = text.partition("=")
    defaults = systems.make("svm").get_params()
    if parameter not in defaults or not values:
        raise SystemExit(f"--tune-svm wants PARAMETER=V1,V2,... with a parameter among "
                         f"{', '.join(defaults)}: not {text!r}")
    kind = type(defaults[parameter])
    if kind is bool:
        truth = {"true": True, "false": False}
        if not set(values.lower().split(",")) <= set(truth):
            raise SystemExit(f"--tune-svm {parameter} takes true or false: not {values!r}")
        return parameter, [truth[value] for value in values.lower().split(",")]
    return parameter, [kind(value) for value in values.split(",") if value]
