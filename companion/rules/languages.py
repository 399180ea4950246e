"""How players of each language ask the rules search: their glue words, the phrases and
synonyms they use, the forms of their questions and how their words are stemmed.

English is :data:`companion.rules.search.ENGLISH` (FTS5's Porter stemmer, the tables of
that module); German, French and Spanish are here, stemmed with Snowball
(``snowballstemmer``, pure Python) after FTS5's ``unicode61`` tokenizer has folded case
and accents. Every word below is written as players type it and folded the same way when
the profile is built (:func:`fold`): players on a phone rarely type accents, so *cuantos*
and *cuántos*, *egalite* and *égalité* are one word.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: A question's form from its first words: "how many", "who"... (see ``search._form``).
Forms = tuple[tuple[tuple[str, ...], str], ...]


def fold(text: str) -> str:
    """``text`` in lower case without accents, as players type it and FTS5's ``unicode61
    remove_diacritics 2`` indexes it (``ß`` becomes ``ss``, as Snowball's German does).

    >>> fold("Égalité"), fold("Größe"), fold("¿Cuántos?")
    ('egalite', 'grosse', '¿cuantos?')
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class Language:
    """What the rules search knows of one language (see ``companion/rules/search.py``).

    ``stemmer`` is a Snowball algorithm's name, or ``None`` for FTS5's own Porter stemmer
    (English); ``fold_accents`` says whether questions and entries are read without
    accents (the Snowball languages: FTS5 folds them in the index anyway). ``overview``
    tells a question asking how a whole thing works ("how does quick mode work"),
    ``names_capitalised`` whether a capitalised word of an entry's question is a name
    (not in German, where every noun is), ``compounds`` whether a word the entries
    never use may be two words they do, written as one (German), and ``kept_endings``
    the endings Snowball would take off although they make another word (German
    *Spieler*, a player, would be *Spiel*, a game).
    """

    code: str
    stemmer: str | None
    phrases: Mapping[str, str]
    word_forms: Mapping[str, str]
    synonym_groups: tuple[tuple[str, ...], ...]
    stop_words: frozenset[str]
    forms: Forms
    overview: Callable[[Sequence[str]], bool]
    yes_no: frozenset[str]
    holding: frozenset[str]
    limit_words: tuple[str, ...]
    game_aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fold_accents: bool = True
    names_capitalised: bool = True
    compounds: bool = False
    kept_endings: tuple[str, ...] = ()
    #: Whether a question's words may come anywhere (French: *on joue a combien*, *il va
    #: ou mon jeton*) rather than first.
    forms_anywhere: bool = False
    #: Whether a past participle (*gespielt*) is stemmed as its verb (German).
    participles: bool = False
    #: Each game's own words (``companion/translations/glossary/<code>.toml``, by the
    #: game's slug; ``app`` for the app's words), folded: each English term, lower case,
    #: with its translation.
    glossary: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def tokenizer(self) -> str:
        """The FTS5 tokenizer of its index."""
        if self.stemmer is None:
            return "porter unicode61 remove_diacritics 2"
        return "unicode61 remove_diacritics 2"

    def folded(self, text: str) -> str:
        """``text`` as this language's search reads it: lower case, and without accents
        where it reads them so."""
        return fold(text) if self.fold_accents else text.casefold()


def folded_language(
    code: str,
    *,
    stemmer: str,
    phrases: Mapping[str, str],
    word_forms: Mapping[str, str],
    synonym_groups: Iterable[Iterable[str]],
    stop_words: str,
    forms: Forms,
    overview_starts: Iterable[str],
    overview_verbs: Iterable[str],
    yes_no: Iterable[str],
    holding: Iterable[str],
    limit_words: Iterable[str],
    game_aliases: Mapping[str, tuple[str, ...]] | None = None,
    names_capitalised: bool = True,
    compounds: bool = False,
    kept_endings: tuple[str, ...] = (),
    participles: bool = False,
    forms_anywhere: bool = False,
) -> Language:
    """A Snowball language, every word folded as questions are (see :func:`fold`)."""
    starts = frozenset(fold(w) for w in overview_starts)
    verbs = frozenset(fold(w) for w in overview_verbs)

    def overview(words: Sequence[str]) -> bool:
        return bool(words) and words[0] in starts and bool(verbs & set(words[1:]))

    return Language(
        code=code,
        stemmer=stemmer,
        phrases={fold(k): fold(v) for k, v in phrases.items()},
        word_forms={fold(k): fold(v) for k, v in word_forms.items()},
        synonym_groups=tuple(tuple(fold(w) for w in group) for group in synonym_groups),
        stop_words=frozenset(fold(stop_words).split()),
        forms=tuple((tuple(fold(w) for w in start), form) for start, form in forms),
        overview=overview,
        yes_no=frozenset(fold(w) for w in yes_no),
        holding=frozenset(fold(w) for w in holding),
        limit_words=tuple(fold(w) for w in limit_words),
        game_aliases={
            slug: tuple(fold(a) for a in names) for slug, names in (game_aliases or {}).items()
        },
        names_capitalised=names_capitalised,
        compounds=compounds,
        kept_endings=tuple(fold(ending) for ending in kept_endings),
        participles=participles,
        forms_anywhere=forms_anywhere,
        glossary=_glossary(code),
    )


#: Each language's glossary of the games' words, shared with the catalogs and the rules.
GLOSSARIES = Path(__file__).resolve().parent.parent / "translations" / "glossary"


def _glossary(code: str) -> dict[str, dict[str, str]]:
    """A language's glossary by table (a game's slug, or ``app``), each English term
    (lower case) with its translation, folded."""
    path = GLOSSARIES / f"{code}.toml"
    if not path.exists():
        return {}
    tables = tomllib.loads(path.read_text(encoding="utf-8"))
    return {
        name: {english.casefold(): fold(said) for english, said in table.items()}
        for name, table in tables.items()
    }


GERMAN = folded_language(
    "de",
    stemmer="german",
    phrases={
        "gleich viele punkte": "gleichstand",
        "gleiche punktzahl": "gleichstand",
        "gleich viel punkte": "gleichstand",
        "gleiche punkte": "gleichstand",
        "punktgleich": "gleichstand",
        "gleich stark": "gleichstand",
        "gleich hoch": "gleichstand",
        "zahlt als": "ist",
        "zahlen als": "ist",
        "gilt als": "ist",
        "wie viele konnen": "wie viele spieler konnen",
        "zu wievielt": "wie viele spieler",
        "unentschieden": "gleichstand",
        "keine karten mehr": "stapel leer",
        "keine karte mehr": "stapel leer",
        "karten sind alle": "stapel leer",
        "ist alle": "leer",
        "sind alle": "leer",
        "geht aus": "leer",
        "gehen aus": "leer",
        "zu ende": "ende",
        "vorbei": "ende",
        "am anfang": "anfang",
        "wer fangt an": "wer beginnt",
        "fangt an": "beginnt",
        "zu zweit": "2 spieler",
        "zu dritt": "3 spieler",
        "zu viert": "4 spieler",
        "zu funft": "5 spieler",
        "hochstens": "max",
        "maximal": "max",
        "am meisten": "max",
        "hab": "habe",
        "gibts": "gibt",
        "wieviele": "wie viele",
        "wieviel": "wie viel",
    },
    word_forms={"gewann": "gewinnt", "gewonnen": "gewinnt"},
    synonym_groups=(
        ("max", "maximum", "limit", "grenze", "obergrenze", "meisten"),
        ("halten", "behalten", "haben", "besitzen", "horten"),
        ("gleichstand", "gleichstandsregel", "patt"),
        ("gewinnt", "gewinnen", "gewinner", "sieg", "sieger", "siegt", "schlagt", "schlagen"),
        ("beginnt", "beginnen", "anfang", "start", "starten", "erster"),
        ("ende", "endet", "enden", "schluss", "beendet"),
        ("punkte", "punkten", "wertung", "sp", "siegpunkte", "wert"),
        ("legen", "anlegen", "platzieren", "ablegen", "setzen"),
        ("benachbart", "neben", "angrenzend", "nachbar", "nachbarn", "umliegenden"),
        ("leute", "spieler", "personen", "mitspieler"),
        ("spielen", "mitspielen", "ausspielen"),
        ("solo", "allein", "alleine", "solospiel", "solomodus"),
        ("munzen", "munze", "geld"),
        ("drehen", "rotieren", "umdrehen"),
        ("vogel", "vogelart", "arten"),
        ("fehler", "falsch", "falsche", "strafpunkt", "strafe"),
        ("leer", "aufgebraucht"),
        ("aufdecken", "zeigen"),
        ("bekommen", "bekommt", "bekomme", "nehmen", "nimmt", "kriegen", "kriegt", "erhalten"),
    ),
    stop_words="""
    der die das den dem des ein eine einen einem einer eines und oder aber ist sind bin
    bist war waren sein seid wird werden wurde wurden kann kannst konnen konnt darf darfst
    durfen muss musst mussen soll sollte sollen ich du er sie es wir ihr man mich mir dich
    dir mein meine meinen meinem meiner dein deine deinen seine ihre uns unser unsere wer
    wen wem wessen was wie wann wo warum welche welcher welches welchen wieso weshalb wozu
    woher wohin ob wenn dann als auch noch nur schon mal denn doch ja zu zum zur im in an
    am auf aus bei beim mit nach von vom vor fur uber um bis durch ohne hat habe hast haben
    hatte gibt gib etwas jemand so sehr viel viele eigentlich uberhaupt genau bitte also
    hier da dort diese dieser dieses diesem diesen jetzt gerade nun passiert passieren
    mache macht machen tun tue
    """,
    forms=(
        (("wie", "viele"), "how many"),
        (("wie", "viel"), "how many"),
        (("was", "wenn"), "what if"),
        (("was", "passiert", "wenn"), "what if"),
        (("wer",), "who"),
        (("wem",), "who"),
        (("wessen",), "who"),
        (("wann",), "when"),
        (("wo",), "where"),
        (("wohin",), "where"),
        (("warum",), "why"),
        (("wieso",), "why"),
        (("weshalb",), "why"),
        (("wie",), "how"),
        (("was",), "what"),
        (("welche",), "what"),
        (("welcher",), "what"),
        (("welches",), "what"),
        (("welchen",), "what"),
    ),
    overview_starts=("wie",),
    overview_verbs=("funktioniert", "funktionieren", "geht"),
    yes_no=(
        "kann",
        "darf",
        "muss",
        "ist",
        "sind",
        "soll",
        "zahlt",
        "gilt",
        "gibt",
        "hat",
        "bekomme",
        "bekommt",
        "durfen",
        "konnen",
        "mussen",
        "bringt",
        "bringen",
        "zahlen",
    ),
    holding=("halten", "behalten", "haben", "habe", "hat", "besitzen", "halte"),
    limit_words=("limit", "max", "maximal", "hochstens", "meisten", "mehr", "nie"),
    game_aliases={"owl-about": ("eule", "eulen")},
    names_capitalised=False,
    compounds=True,
    kept_endings=("spieler",),
    participles=True,
)

FRENCH = folded_language(
    "fr",
    stemmer="french",
    phrases={
        "meme score": "egalite",
        "meme nombre de points": "egalite",
        "autant de points": "egalite",
        "ex aequo": "egalite",
        "ex-aequo": "egalite",
        "a egalite": "egalite",
        "pas de": "aucun",
        "plus de place": "aucune place",
        "meme force": "egalite",
        "meme valeur": "egalite",
        "compte comme": "est",
        "comptent comme": "est",
        "ai le droit de": "peux",
        "a le droit de": "peut",
        "on a le droit de": "on peut",
        "avoir le droit de": "pouvoir",
        "a combien": "combien de joueurs",
        "il se passe quoi": "que se passe",
        "qu est ce qui se passe": "que se passe",
        "que se passe t il": "que se passe",
        "en cas d egalite": "egalite",
        "plus de cartes": "pioche vide",
        "n y a plus": "vide",
        "il reste plus": "vide",
        "au maximum": "maximum",
        "au plus": "maximum",
        "est ce que": "",
        "est-ce que": "",
        "qu est ce que": "quoi",
        "c est quoi": "quoi",
        "ca sert a quoi": "quoi sert",
        "a deux": "2 joueurs",
        "a trois": "3 joueurs",
        "a quatre": "4 joueurs",
        "a cinq": "5 joueurs",
        "tout seul": "solo",
        "seul": "solo",
        "ca marche": "fonctionne",
        "marche": "fonctionne",
    },
    word_forms={
        "gagne": "gagner",
        "gagnant": "gagner",
        "construis": "construction",
        "construit": "construction",
        "construisent": "construction",
    },
    synonym_groups=(
        ("maximum", "max", "limite", "plafond", "plus"),
        ("avoir", "garder", "conserver", "posseder", "detenir"),
        ("egalite", "departage", "ex", "aequo", "egal"),
        (
            "gagne",
            "gagner",
            "gagnant",
            "victoire",
            "vainqueur",
            "bat",
            "battre",
            "remporte",
            "emporte",
        ),
        ("commence", "commencer", "debut", "demarre", "premier"),
        ("fin", "termine", "terminer", "finit", "finir", "fini"),
        ("points", "score", "pv", "decompte", "vaut", "rapporte", "marque", "marquer"),
        ("chaque", "chacun", "chacune"),
        ("poser", "placer", "mettre", "jouer"),
        ("adjacent", "adjacente", "voisin", "voisine", "voisins", "cote", "autour"),
        ("gens", "joueurs", "personnes"),
        ("pieces", "piece", "argent"),
        ("tourner", "pivoter", "retourner"),
        ("oiseau", "oiseaux", "espece", "especes"),
        ("erreur", "mauvaise", "faux", "penalite"),
        ("vide", "epuise", "epuisee"),
        ("montrer", "reveler", "devoiler"),
    ),
    stop_words="""
    a au aux de des du d le la les l un une et ou mais est sont suis es sommes etes etre
    ete il elle ils elles on je j tu nous vous me m te t se s moi toi lui leur leurs mon
    ma mes ton ta tes son sa ses notre nos votre vos ce c cet cette ces ca cela qui que
    qu quoi quand ou comment combien pourquoi quel quelle quels quelles si alors en y dans
    par pour sur sous avec sans chez ne n pas plus peut peux peuvent pouvoir doit dois
    doivent faut fait fais faire va vais vont a ai as avons avez ont exactement vraiment
    bien tres donc aussi encore deja il y passe arrive
    """,
    forms=(
        (("combien", "de"), "how many"),
        (("combien", "d"), "how many"),
        (("combien",), "how"),
        (("qui",), "who"),
        (("quand",), "when"),
        (("ou",), "where"),
        (("pourquoi",), "why"),
        (("comment",), "how"),
        (("que",), "what"),
        (("quoi",), "what"),
        (("quel",), "what"),
        (("quelle",), "what"),
        (("quels",), "what"),
        (("quelles",), "what"),
    ),
    overview_starts=("comment",),
    overview_verbs=("fonctionne", "fonctionnent", "marche"),
    forms_anywhere=True,
    yes_no=(
        "peut",
        "peux",
        "puis",
        "doit",
        "dois",
        "est",
        "sont",
        "faut",
        "compte",
        "rapporte",
        "ai",
        "a",
        "on",
        "je",
    ),
    holding=("avoir", "garder", "conserver", "posseder", "detenir", "ai"),
    limit_words=("limite", "maximum", "max", "plus", "jamais"),
    game_aliases={"owl-about": ("hibou", "hiboux", "chouette")},
)

SPANISH = folded_language(
    "es",
    stemmer="spanish",
    phrases={
        "mismos puntos": "empate",
        "mismo puntaje": "empate",
        "misma puntuacion": "empate",
        "empatamos": "empate",
        "empatan": "empate",
        "empatados": "empate",
        "misma fuerza": "empate",
        "cuenta como": "es",
        "cuentan como": "es",
        "se desempata": "desempate",
        "no quedan cartas": "pila vacia",
        "sin cartas": "pila vacia",
        "se acaba": "termina",
        "se acabo": "termina",
        "acaba": "termina",
        "como maximo": "maximo",
        "a lo sumo": "maximo",
        "con dos jugadores": "2 jugadores",
        "dos jugadores": "2 jugadores",
        "en solitario": "solitario",
        "solo": "solitario",
        "que tal": "",
    },
    word_forms={
        "gano": "gana",
        "ganado": "gana",
        "juega": "jugar",
        "juegan": "jugar",
        "juegas": "jugar",
        "juego": "jugar",
        "juegue": "jugar",
    },
    synonym_groups=(
        ("maximo", "max", "limite", "tope", "mas"),
        ("tener", "guardar", "conservar", "poseer", "quedarme"),
        ("empate", "desempate", "empatar", "igualados"),
        ("gana", "ganar", "ganador", "victoria", "vence", "vencer", "gane"),
        ("empieza", "empezar", "comienza", "comenzar", "inicio", "primero", "sale"),
        ("termina", "terminar", "fin", "final", "acabar"),
        ("puntos", "puntua", "puntuacion", "pv", "vale", "valen"),
        ("poner", "colocar", "dejar", "jugar"),
        ("adyacente", "vecino", "vecina", "vecinos", "junto", "alrededor", "al lado"),
        ("gente", "jugadores", "personas"),
        ("monedas", "moneda", "dinero"),
        ("girar", "rotar", "voltear"),
        ("ave", "aves", "pajaro", "pajaros", "especie", "especies"),
        ("error", "equivocada", "equivocado", "mal", "penalizacion"),
        ("vacia", "vacio", "agotada", "agotado"),
        ("mostrar", "revelar", "ensenar"),
    ),
    stop_words="""
    a al de del el la los las lo un una unos unas y o pero es son soy eres somos ser
    esta estan estoy yo tu el ella nosotros ellos ellas me te se le les nos mi mis tu tus
    su sus nuestro nuestra que quien quienes cuando donde como cuanto cuanta cuantos
    cuantas por porque para en con sin sobre hay si no ya muy tambien entonces puede
    puedo pueden podemos debo debe deben hace hago hacer pasa va vamos ese esa esto eso
    este exactamente bien mas
    """,
    forms=(
        (("cuantos",), "how many"),
        (("cuantas",), "how many"),
        (("cuanto",), "how many"),
        (("cuanta",), "how many"),
        (("que", "pasa", "si"), "what if"),
        (("quien",), "who"),
        (("quienes",), "who"),
        (("cuando",), "when"),
        (("donde",), "where"),
        (("por", "que"), "why"),
        (("como",), "how"),
        (("que",), "what"),
        (("cual",), "what"),
        (("cuales",), "what"),
    ),
    overview_starts=("como",),
    overview_verbs=("funciona", "funcionan", "va"),
    yes_no=("puedo", "puede", "pueden", "debo", "debe", "es", "son", "hay", "cuenta", "da", "se"),
    holding=("tener", "guardar", "conservar", "poseer", "tengo"),
    limit_words=("limite", "maximo", "max", "mas", "nunca"),
    game_aliases={"owl-about": ("buho", "buhos")},
)

#: The languages besides English, by code.
PROFILES: dict[str, Language] = {profile.code: profile for profile in (GERMAN, FRENCH, SPANISH)}
