"""Public agreement statistics: ``moot.agreement.krippendorff_alpha`` and
``moot.agreement.fleiss_kappa`` (implemented in ``moot.judging.agreement``)."""

from moot.judging.agreement import (
    agreement_label,
    alpha_data,
    fleiss_kappa,
    fleiss_table,
    krippendorff_alpha,
    krippendorff_alpha_details,
)

__all__ = [
    "agreement_label",
    "alpha_data",
    "fleiss_kappa",
    "fleiss_table",
    "krippendorff_alpha",
    "krippendorff_alpha_details",
]
