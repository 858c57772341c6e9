"""The SGML character entities of the SENSEVAL lexical-sample DTD, decoded to Unicode.

The SENSEVAL-2 XML files inherit the British National Corpus's SGML entities (``&bquo;``,
``&mdash;``, ``&pound;``, ...). Their DTD declares each one only as a placeholder
(``<!ENTITY pound "[pound]">``), so a plain XML parser either fails on them or, given the DTD,
turns them into useless ``[pound]`` strings. ``ENTITIES`` maps every name the DTD declares to
the character(s) the name stands for in ISO 8879 (ISOlat1, ISOlat2, ISOgrk1, ISOnum, ISOpub,
ISOdia) or, for BNC's own additions, in the BNC documentation; plus the five names XML itself
predefines, so one table answers every ``&name;`` a lexical-sample file may contain.
"""
from __future__ import annotations

import unicodedata
from html.entities import html5

# The five entities every XML parser decodes itself; readers must leave these to the parser,
# because substituting ``&lt;`` or ``&amp;`` by hand would create markup.
XML_PREDEFINED: dict[str, str] = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}

# DTD names whose HTML5 meaning is the ISO 8879 one; HTML5 adopted the ISO sets, so Python's
# table is the authority for these rather than a hand-copied list.
_ISO_NAMES_IN_HTML5 = """
ast equals percnt plus sol half horbar lowbar dash Aacute aacute abreve Acirc acirc acute AElig
aelig Agrave agrave Amacr amacr ape aogon Aring aring atilde Auml auml bsol bull cacute Ccaron
ccaron Ccedil ccedil ccirc cent check cir circ commat copy darr dcaron deg die divide dollar
dstrok dtrif Eacute eacute Ecaron ecaron Ecirc ecirc Egrave egrave Emacr emacr eogon eth Euml
euml flat frac12 frac13 frac14 frac15 frac16 frac18 frac23 frac25 frac34 frac35 frac38 frac45
frac56 frac58 frac78 ge grave Gt hearts hellip hstrok Iacute iacute Icirc icirc iexcl igrave
imacr infin iquest Iuml iuml Lacute lacute larr lcub le lsqb Lstrok lstrok Lt mdash micro middot
nacute natur ncaron ncedil ndash Ntilde ntilde num Oacute oacute Ocirc ocirc OElig oelig ograve
ohm omacr Oslash oslash Otilde otilde Ouml ouml plusmn pound Prime prime racute radic rarr
Rcaron rcaron rcub reg rsqb Sacute sacute Scaron scaron Scedil scedil scirc sect sharp sim sup1
sup2 sup3 szlig tcaron tcedil THORN thorn tilde times trade Uacute uacute Ucirc ucirc ugrave
umacr uml uring Uuml uuml verbar wcirc yacute Ycirc ycirc yen Yuml yuml zacute Zcaron zcaron
zdot
""".split()

# ISOgrk1 names the DTD declares: HTML5 spells Greek letters differently (``&alpha;``, not
# ``&agr;``), so each is derived from its stem (the letter's ISO abbreviation) via Unicode names.
_ISO_GREEK_NAMES = """
agr bgr Bgr dgr Dgr egr Egr eegr ggr Ggr igr kgr khgr lgr mgr Mgr ngr ogr Ogr ohgr OHgr pgr Pgr
phgr PHgr psgr PSgr rgr sgr Sgr tgr thgr THgr ugr Ugr xgr zgr Zgr
""".split()

_GREEK_LETTER_OF_STEM = {
    "a": "ALPHA", "b": "BETA", "g": "GAMMA", "d": "DELTA", "e": "EPSILON", "z": "ZETA",
    "ee": "ETA", "th": "THETA", "i": "IOTA", "k": "KAPPA", "l": "LAMDA", "m": "MU", "n": "NU",
    "x": "XI", "o": "OMICRON", "p": "PI", "r": "RHO", "s": "SIGMA", "t": "TAU", "u": "UPSILON",
    "ph": "PHI", "kh": "CHI", "ps": "PSI", "oh": "OMEGA",
}

# Names in no HTML5 table: BNC's additions and the fractions ISOnum lacks. Each line says why
# the character was chosen.
_WRITTEN_BY_HAND = {
    "bquo": "\u201c",  # BNC "begin quote": the source does not say which glyph, so the typographic one
    "equo": "\u201d",  # BNC "end quote", its closing partner
    "rehy": "-",  # BNC "real hyphen": the data uses it inside compounds (full-time), so hyphen-minus
    "ins": "\u2033",  # inches mark (double prime), as in 18&ins; x 12&ins;
    "ft": "\u2032",  # feet mark (prime), as in 2&ft; (60cm)
    "formula": "[formula]",  # BNC dropped the formula itself; keep a visible placeholder word
    "shilling": "/",  # the shilling mark of pre-decimal sums (2/6); Unicode has no shilling sign
    "frac17": "\u2150",  # vulgar fraction one seventh
    "frac19": "\u2151",  # vulgar fraction one ninth
    "frac47": "4\u20447",  # no precomposed four sevenths: digits around FRACTION SLASH
}


def _greek(name: str) -> str:
    """``agr`` -> α, ``OHgr`` -> Ω: the ISOgrk1 naming scheme (stem + ``gr``, case = letter case)."""
    stem = name[: -len("gr")]
    case = "CAPITAL" if stem[0].isupper() else "SMALL"
    return unicodedata.lookup(f"GREEK {case} LETTER {_GREEK_LETTER_OF_STEM[stem.lower()]}")


ENTITIES: dict[str, str] = {
    **{name: html5[name + ";"] for name in _ISO_NAMES_IN_HTML5},
    **{name: _greek(name) for name in _ISO_GREEK_NAMES},
    **_WRITTEN_BY_HAND,
    **XML_PREDEFINED,
}
