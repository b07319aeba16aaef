"""Answers written differently from the reference: equivalent forms pass, others fail, and the
rule that decided is the one expected."""

from __future__ import annotations

import pytest

from rubrics.answers import check_answer

EQUIVALENT = [
    # scientific notation, \times 10^{} against e-notation, units present
    (r"5.31 \times 10^{-11}", r"5.31e-11", None, "numeric"),
    (r"5.31 \times 10^{-11}", r"5.31E-11\ \mathrm{m}", "m", "numeric"),
    (r"5.31 \times 10^{-11}", r"0.0000000000531", None, "numeric"),
    (r"2.0 \times 10^7", r"2.003 \cdot 10^{7}", None, "numeric"),
    (r"$7 \times 10^{6} \mathrm{rad/s}$", r"7.0e6 rad/s", None, "numeric"),
    # fractions against decimals, within 2e-3 relative
    (r"\frac{2}{3}", r"0.6667", None, "numeric"),
    (r"2/3", r"0.667", None, "numeric"),
    (r"0.5", r"\frac{1}{2}", None, "numeric"),
    (r"255", r"255.4", None, "numeric"),
    # units present in the reply
    (r"21", r"21.04\ \text{cm}", "cm", "numeric"),
    (r"7.4", r"7.4 \text{atm}", "atm", "string"),
    (r"4.81", r"4.81 bar", "bar", "string"),
    (r"\delta = 21.8^{\circ}", r"21.8°", None, "string"),
    (r"22.4", r"22.4\,\mu\mathrm{m}", r"\mu m", "string"),
    (r"22.4", r"22.43\,\mu\mathrm{m}", r"\mu m", "numeric"),
    # intervals in the reference accept any value inside them
    (r"[4.96, 4.97]", r"4.965", None, "numeric"),
    (r"$[1.0 \times 10^{-3}, 4.0 \times 10^{-3}]$", r"2.5 \times 10^{-3}", None, "numeric"),
    # rearranged symbolic expressions and equations
    (
        r"v = \sqrt{\frac{e^2}{4 \pi \varepsilon_0 m_e r}}",
        r"\frac{e}{\sqrt{4\pi\epsilon_0 r m_e}}",
        None,
        "symbolic",
    ),
    (r"r_1 = \frac{\hbar}{\alpha m_e c}", r"r_1=\hbar/(m_e c \alpha)", None, "symbolic"),
    (
        r"R = \frac{R_{\odot}}{1 + \frac{v_{rE/S}}{v_{\odot} \sin(\ell)}}",
        r"\frac{R_{\odot} v_{\odot} \sin\ell}{v_{\odot}\sin\ell + v_{rE/S}}",
        None,
        "symbolic",
    ),
    (r"m(R-r) \dot{\phi}^{2} = N", r"N = m \dot{\phi}^2 (R - r)", None, "symbolic"),
    (r"(R-r) \dot{\phi} + r \omega_{z} = 0", r"r\omega_z = -(R-r)\dot\phi", None, "symbolic"),
    (
        r"T = 2 \pi \sqrt{\frac{3a}{2g}}",
        r"2\pi\sqrt{1.5 a/g}",
        None,
        ("symbolic", "after_equals:symbolic"),
    ),
    (r"\frac{\pi}{2 \sin \theta}", r"\frac{\pi}{2}\csc\theta", None, "symbolic"),
    # typesetting only
    (r"\left(\frac{S_0}{4\sigma}\right)^{1/4}", r"(\dfrac{S_0}{4 \sigma})^{1/4}", None, "string"),
    (r"E = mc^2", r"E = m c^{2}\ \mathrm{J}", None, "string"),
    (r"v_1 = \alpha c", r"\alpha c", None, "string"),
    # choices and true/false
    (r"B", r"\text{(B)}", None, ("symbolic", "choice")),  # a lone letter is also a symbol
    (r"B", r"(B) 10 m", None, "choice"),
    (r"A, D", r"(A) and (D)", None, ("symbolic", "choice")),
    (r"\text{True}", r"true", None, "choice"),
    # the part after the last "="
    (r"4.4", r"v = \sqrt{2 g h} = 4.4", None, ("after_equals:string", "after_equals:numeric")),
    (
        r"0.98",
        r"h_{\max} = \frac{v^2}{2g} \approx 0.98\,\mathrm{m}",
        "m",
        ("symbolic", "after_equals:string"),
    ),
]

NOT_EQUIVALENT = [
    (r"5.31 \times 10^{-11}", r"5.33e-11", None),
    (r"5.31 \times 10^{-11}", r"5.31e-10", None),
    (r"2/3", r"0.66", None),
    (r"21", r"22\ \text{cm}", "cm"),
    (r"[4.96, 4.97]", r"5.1", None),
    (
        r"[5.5 \times 10^{-21}, 6.7 \times 10^{-21}]",
        r"[6.9 \times 10^{-22}, 8.5 \times 10^{-22}]",
        None,
    ),
    (
        r"v = \sqrt{\frac{e^2}{4 \pi \varepsilon_0 m_e r}}",
        r"\frac{e}{\sqrt{2\pi\epsilon_0 r m_e}}",
        None,
    ),
    (r"m(R-r) \dot{\phi}^{2} = N", r"N = m \dot{\phi}^2 (R + r)", None),
    (r"\gamma = \frac{Q}{2M}", r"\gamma = \frac{Q}{2m}", None),  # R and r, M and m differ
    (r"x^2", r"x^3", None),
    (r"0", r"a(t) = E_0 e^{-t^2}", None),
    (r"B", r"C", None),
    (r"A, D", r"A", None),
    (r"\text{True}", r"false", None),
    (r"(R-r) \dot{\phi} + r \omega_{z} = 0", r"\dot{z} - r \omega_{\phi} = 0", None),
]


@pytest.mark.parametrize("reference,given,unit,rule", EQUIVALENT)
def test_it_accepts_equivalent_forms(reference, given, unit, rule):
    correct, decided_by = check_answer(given, reference, unit=unit)
    assert correct
    assert decided_by in ((rule,) if isinstance(rule, str) else rule)


@pytest.mark.parametrize("reference,given,unit", NOT_EQUIVALENT)
def test_it_rejects_different_answers(reference, given, unit):
    assert check_answer(given, reference, unit=unit) == (False, "no_match")


def test_it_asks_the_judge_last_and_records_its_verdict():
    asked = []

    def judge(given, reference, question):
        asked.append((given, reference, question))
        return True

    assert check_answer("5.31e-11", r"5.31 \times 10^{-11}", judge=judge) == (True, "numeric")
    assert asked == []  # a rule decided first: no judge call
    assert check_answer(
        "the field points inward", "toward the centre", question="Which way?", judge=judge
    ) == (True, "judge")
    assert asked == [("the field points inward", "toward the centre", "Which way?")]
    assert check_answer("x", "y", judge=lambda g, r, q: None) == (False, "judge_unparseable")
