"""``ad_hominem``: a turn attacks the speaker instead of the argument.

A lexicon of attack forms, each tied to a person as its target: an insult, a slur on
competence or experience ("you clearly don't understand", "has never run a
business"), a motive ("of course you would say that", "on the payroll of"), a
disqualification ("who are you to", "有什么资格"), or contempt for the person ("people
like you", "你这种人"). The same words aimed at an argument ("this argument is naive",
"这个说法太天真") are criticism, not ad hominem: the English forms require a personal
target (you, my opponent, he/she, the other side's speaker), and the Chinese ones
are skipped when an argument noun (论点, 说法, 数据...) stands between target and insult.
Quoted words are ignored (quoting an insult to reject it is not one), and so is a
clause that disowns the attack ("I am not calling my opponent naive", "我不是说...").
Chinese text in traditional characters is read in simplified form first
(``moot.detectors.hanzi``), so "說謊" meets the form written "说谎".

Limits: irony, insinuation without these forms, and insults the lexicon lacks are
missed; a generic "you" followed by an insult word is flagged.
"""

from __future__ import annotations

import re
from functools import lru_cache

from moot.detectors.finding import Finding
from moot.detectors.hanzi import simplified
from moot.detectors.lexical import clauses, fold, shorten, split_sentences, without_quotes
from moot.detectors.messages import message
from moot.detectors.transcript import Transcript
from moot.regex_gate import Gated, GateSet


def _split(words: str) -> list[str]:
    return words.split()


def _any(*alternatives: str) -> str:
    """A regex group matching any of ``alternatives`` (each a regex)."""
    return "(?:" + "|".join(alternatives) + ")"


# ---- English ------------------------------------------------------------------------

_PERSON = _any(
    "you",
    "my (?:learned |honourable |honorable |dear )?(?:opponents?|friends?|colleagues?)",
    "the (?:other|opposing) (?:side|team|speaker)",
    "the opposition",
    # a parliament's name for the member opposite ("the right hon. and learned Gentleman")
    r"the (?:right )?hon(?:\.|ourable)"
    r"(?: (?:and (?:learned|gallant) )?(?:gentleman|lady|member)|$)",
    # the same cut by the sentence split after "hon."
    r"^(?:and (?:learned|gallant) )?(?:gentleman|lady)",
    "(?:this|that|the) speaker",
    "he",
    "she",
    "this (?:man|woman|gentleman|lady)",
    r"[\w'-]+(?:'s)? (?:speaker|representative|debater)",
)
"""Who an attack can be aimed at: the addressee, the opponent, a speaker (never 'I')."""
_BE = _any(
    *_split("is are 's 're was were seems? sounds? looks? remains?"), "must be", "ha(?:s|ve) been"
)
_FILL = (
    r"(?:\s+"
    + _any(
        *_split("clearly obviously simply just really so such being totally completely utterly"),
        *_split(
            "hopelessly deeply plainly evidently very quite incredibly frankly truly basically"
        ),
        *_split("grossly dangerously probably"),
        "nothing but",
        "little more than",
        "a",
        "an",
        "the",
        "an absolute",
        "a complete",
        "a total",
    )
    + ")*"
)
_ADJ = _any(
    *_split("ignorant clueless naive naïve stupid dumb idiotic moronic foolish incompetent"),
    *_split("dishonest hypocritical arrogant biased bitter delusional deluded paranoid lazy"),
    *_split("unqualified corrupt bought pathetic embarrassing cowardly childish brainwashed"),
    *_split("senile hysterical unhinged gullible illiterate uneducated ill-informed ill-educated"),
    *_split("spoiled spoilt elitist dense slow thick crazy insane mad ridiculous"),
    # worth and courage ("you are useless", "spineless"); "blind", not "blind to" a fact
    *_split("useless spineless gutless"),
    r"blind(?! to\b)",
    "laughable",
    "a liar",
    "out of touch",
    "not very bright",
    "not smart enough",
    "too young",
    "too old",
    "out of (?:your|his|her) depth",
)
"""Adjectives that judge a person (aimed at an argument they are criticism)."""
_NOUN = _any(
    *_split("idiot moron fool imbecile liar hypocrite clown joke shill troll crank fanatic"),
    *_split("zealot coward amateur charlatan fraud propagandist luddite dinosaur snowflake"),
    *_split("loser failure nobody hack puppet mouthpiece ideologue know-it-all fanboy fangirl"),
    *_split("bigot elitist snob buffoon halfwit simpleton nitwit dimwit dunce blowhard"),
    *_split("windbag quack crook marxist communist fascist"),
    "con artist",
    "conspiracy theorist",
    "failed [a-z]+",
    "armchair [a-z]+",
    "sports fan",
)
_EXPERT = _any(
    *_split("economist expert scientist doctor engineer lawyer teacher professional specialist"),
    *_split("historian statistician researcher scholar parent farmer nurse"),
)
_HEDGE = r"(?:(?:clearly|obviously|simply|just|evidently|plainly|really|still|probably|actually) )?"

_EN_PATTERNS: tuple[tuple[str, str], ...] = (
    # tu quoque: the speaker's own record as the reason not to hear the point
    (
        "speaker",
        r"\b(?:so )?(?:don't|do not) (?:you )?(?:tell|lecture|talk to) (?:me|us) about\b"
        r"|\byou(?:'re| are) (?:a fine )?one to talk\b|\blook who(?:'s| is) talking\b"
        r"|\byou,? of all people\b|\bpot calling the kettle\b",
    ),
    # the speaker's knowledge dismissed instead of the claim answered
    (
        "competence",
        r"^(?:you|he|she) (?:just |simply |clearly )?(?:don't|doesn't|do not|does not) know"
        r"(?:[.!?]*\s*$| anything\b| the first thing\b| what (?:you're|he's|she's) talking about\b)"
        r"|\b(?:you|he|she) (?:have|has) no idea (?:what (?:you're|he's|she's|you are|he is|she is)"
        r" talking about|how (?:to|the) )|\byou wouldn't understand\b",
    ),
    # a person called a pejorative noun outright, or ranked the worst of their kind
    (
        "insult",
        r"\b(?:he|she|you)(?:'s| is|'re| are) (?:the|a|an)"
        r" (?:racist|liar|clown|fool|joke|disgrace|disaster)\b",
    ),
    (
        "insult",
        r"\b(?:the )?worst (?:[\w-]+ )?"
        r"(?:president|leader|candidate|senator|politician|debater|minister|governor|mayor)s?"
        r" (?:\w+ )?(?:ever|in (?:the )?(?:\w+ )?history|\w+ has ever had)\b",
    ),
    # a pejorative put before the person ("how incompetent she and her boss are")
    ("insult", rf"\bhow {_ADJ} (?:he|she|you|they) (?:and [\w ]{{1,20}})?(?:is|are|was|were)\b"),
    (
        "competence",
        r"\b(?:nothing|not one thing) (?:smart|intelligent|clever) about (?:you|him|her)\b",
    ),
    (
        "competence",
        r"\b(?:has|have) no idea what (?:he|she|you|they)(?:'s| is|'re| are) talking about\b",
    ),
    ("competence", r"\b(?:lowest|bottom) (?:of|in) (?:your|his|her) class\b"),
    ("experience", r"\bwouldn't know an? [a-z]+ (?:if|unless)\b"),
    ("insult", rf"\b{_PERSON}\s*{_BE}{_FILL}\s+{_ADJ}\b"),
    ("insult", rf"\b{_PERSON}\s*{_BE}{_FILL}(?:\s+[\w-]+)?\s+{_NOUN}s?\b"),
    ("insult", rf"\b(?:you|you're|you are)\s+(?:an?\s+)?{_any(_NOUN, _ADJ)}\b"),
    (
        "insult",
        rf"\b{_PERSON}\s*{_BE}{_FILL}\s+(?:incapable|unable) (?:of|to) "
        + _any(*_split("basic simple understand grasp follow count read think do")),
    ),
    (
        "insult",
        rf"\b{_PERSON}\s*{_BE}\s+(?:not|hardly|far from) "
        + _any(*_split("smart intelligent bright clever competent qualified educated informed"))
        + r" enough\b",
    ),
    (
        "insult",
        rf"\b(?:your|his|her|{_PERSON}'s) (?:\w+ )?"
        + _any(
            *_split("ignorance arrogance hypocrisy incompetence stupidity dishonesty naivety"),
            *_split("naivete cowardice laziness bias"),
            "lack of " + _any(*_split("understanding knowledge experience intelligence education")),
        )
        + r"\b",
    ),
    (
        "insult",
        # a manner of speaking or behaving likened to a child's ("shouting like a child")
        r"\b(?:acting|behaving|talking|sounds?|sounding|shouting|screaming|whining|sulking)"
        r" like (?:a|an) (?:spoilt |spoiled |little |petulant )?"
        + _any(*_split("child toddler teenager idiot fool clown zealot fanatic schoolboy baby"))
        + r"\b",
    ),
    ("insult", r"\b(?:get a (?:clue|grip|brain|life)|grow up)\b"),
    ("insult", r"\bare you (?:stupid|blind|deaf|dense|serious|kidding me)\b"),
    ("insult", rf"\b(?:only|any|what)\s+(?:an?\s+)?{_NOUN}s?\s+(?:would|could)\b"),
    ("insult", r"\bwouldn't know (?:an? |the )?[\w\s-]{1,30} from (?:an? |the )?\w+"),
    ("insult", r"\b(?:stop )?embarrass(?:ing)? (?:yourself|himself|herself)\b"),
    ("insult", r"\bshame on you\b|\bshould be ashamed\b"),
    (
        "insult",
        r"\bnot worth "
        + _any(*_split("arguing debating talking listening responding engaging"))
        + r" (?:with|to)\b",
    ),
    (
        "insult",
        _any(*_split("anti-science science-denying brain-dead half-witted small-minded"))
        + r"[\w\s-]{0,20} (?:from|by) (?:people|someone|those|you)\b",
    ),
    (
        "lying",
        rf"\b{_PERSON}\s*(?:is|are|'s|'re|was|were)\s+(?:\w+\s+)?lying\b"
        r"(?! (?:in|on|down|around|there|awake|low|still))",
    ),
    ("lying", rf"\b{_PERSON}\s+(?:\w+\s+)?lied\b"),
    ("credentials", rf"\b{_PERSON}\s*{_BE}\b[^.;]{{0,40}}\bnot an? {_EXPERT}\b"),
    (
        "credentials",
        rf"\b{_PERSON}\s*(?:is|are|'s|'re)\s+(?:no|hardly an?|not even an?) {_EXPERT}\b",
    ),
    (
        "competence",
        rf"\b{_PERSON}\s+{_HEDGE}"
        r"(?:don't|do not|doesn't|does not|didn't|did not|can't|cannot|never) (?:even )?"
        + _any(
            *_split("understand grasp comprehend"),
            # "You don't know what's on the ballot" disputes a fact; knowledge in
            # general ("what you're talking about", "how to run a business") is the person
            r"know what (?:you|he|she|they)(?:'re|'s| are| is) (?:talking|saying|doing)",
            "know how to",
            "know the first",
            "get it",
            "have a clue",
            "have any idea",
            "bothered to",
            "read the",
        ),
    ),
    (
        "competence",
        rf"\b{_PERSON}\s+{_HEDGE}(?:has|have|'ve) (?:no|not the slightest|not a) "
        # "she has no idea whether it's Russia" disputes a fact (knowledge in general is
        # the form above: "no idea what he's talking about")
        + _any(
            *_split("clue understanding experience expertise qualifications business"),
            r"idea what (?:[\w']+ ){1,4}(?:feels?|is|was|are) like",
        )
        + r"\b",
    ),
    (
        "competence",
        rf"\b{_PERSON}\s+{_HEDGE}(?:knows?|understands?)"
        r" (?:nothing|next to nothing|little|very little)\b",
    ),
    (
        "competence",
        rf"\b{_PERSON}\s+{_HEDGE}lacks? (?:the |any )?"
        + _any(*_split("intelligence brains education experience qualifications expertise"))
        + r"\b",
    ),
    (
        "competence",
        # a basic skill, or a word the person cannot bring themselves to say
        rf"\b{_PERSON}\s+(?:can't|cannot|can not) even (?:count|read|spell|add|say|name|admit)\b",
    ),
    ("competence", r"\bwhat (?:would|does|do) (?:a|an|some|this|that) [\w-]+ know\b"),
    # sarcasm about what the speaker has read or knows
    (
        "competence",
        r"\b(?:have|did) (?:you|they) (?:even|ever) (?:read|opened|looked at)\b"
        r"|\bmaybe (?:you|he|she) should (?:read|learn|try reading|look it up|open a book)\b"
        r"|\b(?:you|he|she) (?:clearly|obviously) (?:never|haven't|hasn't|didn't|did not)"
        r" (?:read|studied|opened|looked at)\b",
    ),
    ("competence", r"\b(?:did|have) you even (?:read|look|listen|check|think)"),
    (
        "experience",
        rf"(?<!if )(?<!when )(?<!unless )(?<!once )\b{_PERSON}\s+{_HEDGE}(?:has|have|'ve)"
        rf" {_HEDGE}never (?:\w+ ){{0,2}}"
        + _any(
            *_split("worked managed run ran raised been had lived waited done stood taught met"),
            *_split("seen used built owned driven held earned paid read studied visited tried"),
            "started",
            "set foot",
        )
        + r"\b",
    ),
    (
        "experience",
        r"\b(?:spoken like|only|coming from|typical of) "
        + _any(*_split("someone somebody anyone people those"), "a (?:person|man|woman|guy)")
        + r" (?:who|that) (?:has |have |'s |'ve |had )?(?:never|only|not once)\b",
    ),
    (
        "experience",
        rf"\b{_PERSON}\s+{_HEDGE}(?:has|have) no (?:children|kids|family|job|experience)\b",
    ),
    (
        "speaker",
        r"\b(?:spoken like|coming from|rich coming from|typical of) "
        + _any(*_split("a an someone somebody you"), "a true", "the kind of", "my opponent")
        + r"\b",
    ),
    ("speaker", r"\bpeople like (?:you|him|her|my opponent)\b(?! and)"),
    (
        "speaker",
        r"(?:^|[.!?]\s*)says (?:the|a|someone|somebody)(?: [\w-]+)?"
        r"(?: guy| man| woman| person| one| lady| gentleman)? (?:who|that)\b",
    ),
    ("speaker", r"\b(?:your kind|the likes of you|you people|your lot)\b"),
    ("speaker", r"\b(?:rich|privileged|spoiled|spoilt|sheltered) (?:kid|boy|girl|brat|elite)s?\b"),
    (
        "disqualify",
        _any(
            "who are you to",
            "what would (?:you|he|she|they) know",
            "what do you know about",
            "(?:you|he|she) ha(?:s|ve) no right to",
            "not qualified to",
            "no credibility",
            "stop pretending",
            "(?:nobody|no one) should (?:listen to|trust|believe|take) "
            "(?:you|him|her|my opponent|a man|a woman|someone|anyone|people)",
            "(?:don't|do not) (?:listen to|trust) (?:him|her|my opponent)",
            # a person and their work distrusted together ("don't trust Dan and his
            # statistics", "Dan Smith, and her figures"): the person, not a claim, is the
            # reason ("their" names things as often: "polls and their margins of error")
            r"(?:don't|do not) trust [a-z]+(?: [a-z]+)?(?:\s*(?:,|--|—|–))?"
            r"\s+and\s+(?:(?:--|—|–)\s*and\s+)?(?:his|her) [a-z]+",
        ),
    ),
    (
        "disqualify",
        r"\b(?:people|someone|anyone|those) (?:who|like you|with your)\b[^.;]{0,60}\b"
        + _any("should not", "shouldn't", "have no business", "(?:are|is) in no position")
        + " (?:be )?"
        + _any(
            *_split("giving lecturing telling redesigning talking commenting debating"), "speak"
        ),
    ),
    (
        "disqualify",
        r"\b(?:your|his|her|my opponent's) (?:views?|opinions?|word|thoughts?|take)"
        r" (?:on [\w\s-]{1,30} )?(?:is|are) (?:\w+ )?"
        r"(?:worthless|worth (?:exactly |absolutely )?nothing|irrelevant|meaningless)\b",
    ),
    (
        "motive",
        rf"\bof course {_PERSON}\s*"
        + _any(
            "would",
            "'d",
            "will",
            "wants? to",
            "is going to",
            "opposes?",
            "supports?",
            "defends?",
            "says?",
            "argues?",
            "claims?",
            "likes?",
            "denies",
            "deny",
            "objects?",
            "thinks?",
            "prefers?",
        )
        + r"\b",
    ),
    ("motive", r"\bpaid to (?:say|argue|defend|push|promote|write|believe)\b"),
    ("motive", rf"\b{_PERSON} would say that\b|\bno wonder (?:you|he|she|my opponent)\b"),
    (
        "motive",
        _any(
            "on the payroll of",
            "in the pocket of",
            "paid shill",
            "bankrolled by",
            "a shill for",
            r"works? for the [\w\s-]{1,25} (?:lobby|industry)",
            r"paid by the [\w\s-]{1,25} (?:lobby|industry)",
        ),
    ),
    (
        "motive",
        rf"\b{_PERSON}\s*(?:is|are|'s|'re)\s+(?:hardly|not|no|far from)\s+(?:a |an )?"
        + _any(*_split("neutral impartial objective unbiased disinterested independent")),
    ),
    (
        "motive",
        rf"\b{_PERSON}\s+(?:has|have|'ve) (?:a )?(?:vested|financial|personal) (?:interest|stake)",
    ),
    (
        "motive",
        rf"\b{_PERSON}\s+{_HEDGE}(?:has|have|'ve|with) (?:got )?(?:an? |his |her |your |their )?"
        r"(?:own |hidden |political |obvious |clear |personal )?agenda\b",
    ),
    (
        "motive",
        rf"\b{_PERSON}\s*(?:is|are|'s|'re)\s+(?:just |only |simply )?(?:protecting|defending)"
        r" (?:your|his|her|their) (?:own )?"
        + _any(*_split("job jobs income interests pension industry employer donors salary"))
        + r"\b",
    ),
    ("motive", r"\bwho pays (?:you|him|her|your salary|his salary|her salary)\b"),
    (
        "speaker",
        r"\b(?:lectures?|lessons?|sermons?|advice|moralising|moralizing)"
        r" (?:(?:on|in|about) [\w\s-]{1,25} )?from"
        r" (?:a|an|someone|somebody|the likes of|people like|a man|a woman|him|her|you)\b",
    ),
    (
        "competence",
        r"\b(?:go back to school|back to kindergarten|debating (?:with )?grown-?ups"
        r"|leave (?:this|it) to the (?:experts|adults|grown-?ups)|out of (?:your|his|her) depth)\b",
    ),
    (
        "background",
        # not the generic "you" of "like having your own bank account" (anyone's)
        r"(?<!\bhaving )(?<!\bhave )(?<!\bget )(?<!\bgetting )"
        r"\b(?:your|his|her|my opponent's) (?:own )?"
        + _any(
            *_split("wealth fortune millions mansion yacht inheritance privilege bonus"),
            "bank balance",
            "bank account",
            "sports cars?",
            "trust fund",
        )
        + r"\b",
    ),
    (
        "background",
        r"\b(?:your|his|her|my opponent's) (?:\w+ )?"
        + _any(
            *_split("salary paycheck income wealth background age gender accent upbringing"),
            *_split("privilege generation religion politics"),
        )
        + r" (?:makes|means|explains|blinds|is why|shows)\b",
    ),
    ("background", r"\b(?:at your age|your generation (?:always|never|just)|ok,? boomer)\b"),
    # shame, standing and lies as a label for the person
    (
        "speaker",
        r"\b(?:ought to|should) be ashamed of (?:yourself|himself|herself|themselves)\b"
        r"|\bshame on (?:you|him|her)\b|\bhave you no (?:shame|decency)\b"
        r"|\bbecause (?:you|he|she) (?:have|has) nothing (?:else )?to say\b",
    ),
    (
        "disqualify",
        r"\b(?:i will not|i won't|i'm not going to|i am not going to) (?:sit here and )?"
        r"be lectured (?:by|about)\b",
    ),
    (
        "lying",
        r"\b(?:so many|all the|all of the|hundreds of|all those) lies (?:that )?(?:he|she|you)"
        r"(?:'s|'ve| has| have)? (?:told|tells|tell|said)\b"
        r"|\b(?:he|she|you)(?:'s|'ve| has| have) lied (?:hundreds|thousands|so many|again|over)\b"
        r"|\b(?:you|he|she) (?:tell|tells|told) so many lies\b",
    ),
    # a person's conduct called opportunism, a person told to be ashamed, a grasp of the
    # world denied by idiom, a debater sent to the kindergarten
    (
        "motive",
        rf"\b(?:his|her|your|my opponent's) (?:\w+ )?opportunism\b|\bopportunism of {_PERSON}",
    ),
    ("speaker", r"\b(?:be|is|are|feel|look) (?:\w+ )?ashamed of (?:yourself|himself|herself)\b"),
    (
        "competence",
        rf"\b{_PERSON}\s*(?:is|are|'s|'re)\s+(?:\w+ )?(?:living|lives|live) (?:on another planet"
        r"|in (?:a |his own |her own |your own )?(?:fantasy|dream) ?(?:world|land)"
        r"|in cloud[- ]cuckoo[- ]land)\b",
    ),
    ("competence", rf"\b{_PERSON}\s*(?:is|are|'s|'re)\s+(?:\w+ )?in (?:the )?kindergarten\b"),
    # a motive put in place of an answer
    (
        "motive",
        r"\bthe only reason (?:why )?(?:you|he|she)(?:'re| are|'s| is| did| do| does| want)\b"
        r"|\bwould rather make it political\b|\bcrocodile tears\b"
        r"|\b(?:you're|you are|he's|she's) into (?:a )?(?:big )?diversions?\b",
    ),
    # mockery of the person's grasp, judgement or sincerity
    (
        "competence",
        r"\b(?:you|he|she) (?:live|lives|living) in (?:your|his|her) own (?:reality|world)\b"
        r"|\b(?:he|she|you) (?:doesn't|does not|don't|do not) even know\b"
        r"|\bwithout knowing what (?:she|he|you) (?:was|were) doing\b"
        r"|\b(?:has|have|had) (?:such |really |very )?(?:bad|terrible|poor) judgment\b",
    ),
    # sarcasm and insinuation: a rhetorical question at the person's record, mock praise,
    # a sneer at wealth as hypocrisy, a motive of self-interest, a grasp denied by idiom
    (
        "competence",
        r"\b(?:did|have|has|had) (?:you|he|she|my opponent) (?:ever|even|once)"
        r" (?:won?|win|run|ran|built|build|achieved?|accomplished?|created?|done|do|passed|pass)"
        r" (?:anything|a single (?:thing|one)"
        r"|an? (?:election|race|campaign|business|primary|bill))\b",
    ),
    (
        "speaker",
        r"\b(?:i wish|if only|must be nice|not all of us|not everyone|we can't all|we cannot all"
        r"|some of us)\b[^.!?;]{0,40}\bas (?:perfect|pure|righteous|virtuous|enlightened|wise"
        r"|brilliant|smart|clever|gifted) as (?:you|him|her|my opponent|my friend)\b"
        # "as smart as you think": a comparison with what someone believes, not praise
        r"(?! (?:think|thinks|thought|say|says|said|describe|describes|claim|claims|believe"
        r"|believes|imagine|imagines|suggest|suggests|expect|expects|hope|hopes|want|wants))",
    ),
    (
        "background",
        # a debater, named (you, he, my opponent...) or described ("the best known socialist
        # in the country"), not "someone", "anyone who" or a statistic ("the average lottery
        # winner") is rich
        r"(?:\b" + _PERSON + r"\b[^.!?;]{0,40}\b"
        r"|\bthe (?!(?:average|typical|median|ordinary|usual|normal|mean|common) )"
        r"(?:[\w'-]+ ){1,6})"
        r"happens? to (?:be|own|have|live)\b[^.!?;]{0,40}"
        r"\b(?:millionaire|billionaire|(?:two|three|four|five|several|multiple)"
        r" (?:houses|homes|mansions)|mansion|yacht|private jet)"
        r"|\b(?:which|what) tax haven\b[^.!?;]{0,30}\b(?:you|he|she)\b",
    ),
    (
        "insult",
        # "this arrogant billionaire", "one arrogant billionaire for another", "this is a
        # crooked administration" point at someone; "a smug politician" at nobody
        r"\b(?:this|that|one|another|(?:this|that|it|he|she|you|they)(?: is| was| are| were|'s"
        r"|'re) an?) (?:arrogant|crooked|pompous|smug|sleazy|two-faced|spoiled"
        r"|spoilt) (?:billionaire|millionaire|politician|socialist|administration|mayor|senator"
        r"|governor|candidate|president|man|woman|guy)\b",
    ),
    (
        "motive",
        r"\b(?:other than|except|beyond|nothing but|only about|all about|just about|only for)"
        # one person's own interest ("their" is mostly a group's: firms, citizens)
        r" (?:his|her|your) own (?:advancement|ambitions?|careers?|interests?|gain|egos?"
        r"|political future|self-interest|benefit|pockets?|glory)\b",
    ),
    (
        "competence",
        # "we're not able to speak to the first thing" said to the opponent's record;
        # "they" is mostly an institution ("they don't teach children the first thing")
        r"\b(?:you|you're|he|he's|she|she's|we're|we are|my opponent)\b[^.!?;]{0,40}"
        r"(?:\bnot|n't|\bnever|\bunable to)\b[^.!?;]{0,30}\bthe (?:first|simplest|most basic) thing"
        r" about\b",
    ),
    (
        "lying",
        # lies as a habit of the person spoken to or about, not of an industry or the press
        # ("as you know, the industry told a pack of lies": a parenthetical "you" is no liar)
        r"\b(?<!as )(?:you|you're|he|he's|she|she's|my opponent)\b(?!,| know\b| see\b)"
        r"[^.!?;]{0,60}\b(?:a bunch of|a pack of"
        r"|a string of|nothing but|continuous|constant) (?:lies|lying)\b"
        r"|\bstop with the (?:continuous |constant )?(?:lies|lying)\b",
    ),
    # tu quoque: a charge called absurd or ironic from the mouth that makes it ("particularly
    # absurd coming from him"), the person's own record set against what they now ask
    # ("you have milked the system dry and then you want to ... reduce it"), their own
    # conduct in office ("when he was in power, he increased the allowances")
    (
        "speaker",
        r"\b(?:rich|absurd|ironic|hypocritical|laughable|strange|odd|funny)"
        r" (?:(?:particularly|especially|very|rather|a bit|a little) )?coming from"
        r" (?:him|her|you|the|a|an|someone|somebody|my)\b",
    ),
    (
        "speaker",
        # (the perfect: "you have…": a generic "you sign and then you want out" is no record;
        # conduct, not a statement: "you have conceded X, and now you ask…" is an argument)
        r"\byou(?: have|'ve) (?!(?:\w+ )?(?:conceded|argued|said|claimed|admitted|agreed"
        r"|acknowledged|stated|suggested|raised|made the|accepted|noted|pointed|shown|proved"
        r"|explained|asked|told))[^.!?;]{3,60}\b(?:and|but) (?:then|now) you (?:\w+ )?"
        r"(?:want|come|ask|expect|tell|lecture|complain|call|blame)\b",
    ),
    (
        "speaker",
        r"\bwhen (?:you|he|she|the (?:honourable |hon\. )?member[\w ]{0,30}) (?:was|were) in"
        r" (?:power|government|office)\b[^.!?;]{0,20}\b(?:you|he|she) (?:\w+ )?"
        r"(?:increased|raised|did|introduced|voted|cut|spent|took|gave|used|made|had)\b",
    ),
    # the person told to be silent ("should shut up", "not going to be able to shut him up")
    ("disqualify", r"\bshut (?:up|(?:him|her|you|them) up)\b"),
    # competence as a record: nothing ever done, nothing read, a basic distinction unknown
    (
        "competence",
        # (not "can't": "you can't get anything done without a majority" is anyone)
        r"\b(?:you|he|she)\b[^.!?;]{0,20}\b(?:never|don't|doesn't|didn't|do not|does not"
        r"|did not) (?:\w+ )?(?:get|gets|got|getting)"
        r" (?:anything|a thing|much|nothing) done\b",
    ),
    (
        "competence",
        r"\b(?:you|he|she|this man|this woman)(?:'s| has| have|'ve) done (?:virtually |absolutely"
        r" |literally |precisely )?nothing\b(?! wrong| illegal| to (?:deserve|warrant|earn))",
    ),
    (
        "competence",
        r"\b(?:you|he|she)(?: have| has|'ve|'s) (?:not|never) (?:even )?(?:read|bothered)\b"
        r"|\b(?:you|he|she) (?:haven't|hasn't) (?:even )?(?:read|bothered)\b",
    ),
    (
        "competence",
        r"\b(?:you|he|she|they)\b[^.!?;]{0,20}\b(?:do not|don't|does not|doesn't|did not"
        r"|didn't|cannot|can't|never) (?:\w+ )?(?:understand|know|grasp|see|tell) the difference"
        r" between\b",
    ),
    # a pejorative put before a person named by office ("how dense the Minister of Education
    # is"), an epithet of theatre
    (
        "insult",
        rf"\bhow {_ADJ} (?:the|my|this|that|our) (?:[\w.-]+ ){{0,2}}(?:minister|member|gentleman"
        r"|lady|senator|president|candidate|leader|mayor|governor|premier|chancellor|secretary"
        r"|opponent)s?(?: (?:of|for) [\w ]{1,30})? (?:is|are|was|were|has been|have been)\b",
    ),
    ("insult", r"\bdrama queens?\b"),
    # fitness for office and temperament as the person's flaw, a closeness to money as
    # their motive ("he is dangerous and unfit", "someone with the temperament of",
    # "your cozy relationship with Wall Street")
    ("insult", rf"\b{_PERSON}\s*(?:is|are|'s|'re|was|were)\s+(?:\w+\s+){{0,3}}unfit\b"),
    (
        "competence",
        r"\b(?:someone|anyone|a man|a woman|a person) with (?:the|his|her|your) temperament\b"
        r"|\b(?:doesn't|does not|don't|do not|lacks?) (?:have )?the temperament\b",
    ),
    (
        "motive",
        r"\b(?:your|his|her) (?:cozy|cosy|chummy) (?:relationships?|ties|friendships?) with\b",
    ),
)

_EN_DISOWN = re.compile(
    r"\b(?:not|never|n't|no one|nobody|won't|will not|wouldn't|would not)\s+(?:\w+\s+){0,3}"
    + _any(
        *_split("calling saying suggesting implying claiming accusing call say suggest imply"),
        *_split("claim accuse think mean questioning question attacking attack"),
    )
    + r"\b"
    # "does not show that you...": an inference about the person denied (with "that": "would
    # not show his tax returns" is no denial)
    r"|\b(?:not|never|n't)\s+(?:\w+\s+){0,2}(?:indicate|indicates|show|shows|prove|proves)"
    r" that\b"
    # a charge against the speaker reported by others (not "you said I was wrong because...")
    r"|\b(?:it was said|it's been said|it has been said|(?:they|people) (?:said|say|claimed"
    r"|claim)) (?:that )?i (?:was|am|were|had)\b"
)
"""A clause that disowns an attack ("I am not calling my opponent naive", "missing a name
does not show that you do not understand"), or reports one made on the speaker ("it was
said that I was in the pocket of...")."""

# ---- Chinese ------------------------------------------------------------------------

_CLAUSE_CHAR = r"[^，,。；;！!？?]"
_ZH_PERSON = _any(
    *_split("你们? 您 对方辩友 对方辩手 对方 对手 反方辩友 正方辩友 反方 正方"),
    *_split("这位辩友 这位 那位 此人 他 她 这种人 这号人"),
    r"说(?:出)?(?:这种|这样的|这)话的(?:人|那位)",
    r"[\u4e00-\u9fff]{1,6}的(?:辩手|那位|代表|这位)",
    # a council's members are its debaters ("梁美芬议员", "其他议员", "很多同事")
    r"(?:[\u4e00-\u9fff]{1,3})?议员",
    "同事",
)
_ZH_SPEAK = r"(?:谈|说|讲|评价|评论|讨论|批评|指责|质疑|教|管|发言|发表|插嘴|指手[画划]脚|说三道四)"
"""Verbs of speaking on a matter: what a speaker may be said to have no standing to do."""
_ZH_STANDING = (
    r"(?:(?:来|在|到)(?:这里|这儿)?|再|(?:对|跟|和|同|向|替)"
    + _CLAUSE_CHAR
    + "{1,10}?)?"
    + _ZH_SPEAK
)
"""No standing to speak on the matter, the verb after a place ("来这里谈") or an object
("对这个问题发表意见", "跟我谈"). "没有资格结婚", "凭什么认为" deny an eligibility or ask
for a reason (docs/detectors.md, "Eighth round")."""
_ZH_NOT_SELF = rf"(?:(?!我|咱|本席){_CLAUSE_CHAR}){{0,6}}"
"""The words between a debater and a denial of standing: none of them the speaker ("对方说
我们没有资格谈" reports a charge against the speaker's own side)."""
_ZH_ARGUMENT_WORDS = _any(
    *_split("论点 论据 观点 说法 逻辑 数据 推理 论证 结论 方案 主张 理由 例子 比喻 类比 研究"),
    *_split("证据 发言 这段话 说辞 报告 调查 统计 前提 假设 计划"),
)
"""Words for an argument: an insult after one of them is aimed at the argument."""
_ZH_INSULT = _any(
    *_split("无知 愚蠢 蠢货 蠢 白痴 傻瓜 傻子 弱智 脑残 天真 幼稚 外行 门外汉 骗子 伪君子 虚伪"),
    *_split("小丑 懦夫 键盘侠 井底之蛙 不学无术 孤陋寡闻 没脑子 没文化 没见识 没常识 不要脸"),
    *_split("无耻 书呆子 杠精 喷子 糊涂 可笑 无能 废物 丢人现眼 五谷不分 半桶水"),
    "纸上谈兵的人",
    *_split("不懂装懂 自以为是 夜郎自大 坐井观天 道貌岸然 假惺惺 冷血 没良心 居心叵测 居心不良"),
    *_split("别有用心 心怀鬼胎"),
    "智商(?:堪忧|不够|有问题|令人担忧|让人担忧)?",
    "脑子(?:有问题|进水|坏了|跟不上|不好使|不清楚)",
    "素质(?:太低|太差|低下)",
    "水平(?:太低|太差|有限|不够)",
)
_ZH_NOT_MANNER = r"(?!地(?:以为|认为|相信|假设|期待|期望|觉得|主张|断言))"
"""Not the manner of holding a claim: "正方天真地以为…" (naively believes) describes the
belief the sentence goes on to dispute, not the person (docs/detectors.md, "Tenth
round")."""
_ZH_DONE = _any(*_split("养 开 做 带 挤 骑 去 干 读 坐 当 上 见 用 种 管 教 生 住 摸"))
_ZH_NEVER_DID = _any(
    *_split("当过 养过 开过 做过 带过 挤过 骑过 去过 干过 读过 坐过 吃过苦 种过地 下过基层 创过业"),
    *_split("工作过 上过班 教过书 生过 见过 住过 管过 经历过 碰过 摸过 上过学 念过书 读过书"),
    *_split("待过 呆过 生活过 干过一天"),
)

_ZH_PATTERNS: tuple[tuple[str, str], ...] = (
    # sarcasm about what the speaker has read or knows
    (
        "competence",
        r"(?:你|对方)(?:辩友)?(?:到底|究竟)懂不懂"
        r"|建议(?:对方|你)(?:辩友)?(?:先|回去)?(?:去)?(?:读|看|查|学|了解)(?:一下|一读|一看)"
        r"|(?:你|对方)(?:辩友)?(?:是不是|有没有)(?:根本)?(?:没|没有)?(?:读过|看过|学过)",
    ),
    (
        "insult",
        rf"{_ZH_PERSON}(?:(?!{_ZH_ARGUMENT_WORDS}){_CLAUSE_CHAR}){{0,10}}{_ZH_INSULT}{_ZH_NOT_MANNER}",
    ),
    ("insult", r"(?:小学生|三岁小孩|三岁孩子|小孩子|傻子|普通人)都(?:知道|明白|懂)"),
    ("insult", r"(?:是不是|真)傻|傻[吗吧]|读书读傻了|书都读到哪里去了|别丢人了"),
    ("speaker", r"站着说话不腰疼|何不食肉糜|饱汉不知饿汉饥|吃饱了撑的|良心被狗吃了"),
    ("speaker", rf"(?:像)?{_ZH_PERSON}(?:这种|这样|这类)(?:的)?人"),
    ("speaker", r"你们这些(?:人|[\u4e00-\u9fff]{0,4}(?:人|者|家|派|党|族|员|生|客|手|迷|粉))"),
    ("speaker", r"你这种|你这号|你(?:一个|个)[\u4e00-\u9fff]{1,4}[，,]"),
    (
        "speaker",
        rf"{_ZH_PERSON}{_CLAUSE_CHAR}{{0,6}}一看就(?:是|知道是)|一看就是[^。，,；;]{{0,20}}的人",
    ),
    ("lying", rf"{_ZH_PERSON}.{{0,6}}(?:撒谎|说谎|睁眼说瞎话|满嘴跑火车|信口雌黄)"),
    (
        "competence",
        rf"{_ZH_PERSON}{_CLAUSE_CHAR}{{0,8}}"
        + _any(*_split("根本 压根 完全 显然 肯定 一点都 什么都 啥都 从来"))
        + "(?:就)?"
        + _any(
            *_split("不懂 不明白 不了解 不知道 搞不懂 没搞懂 没弄懂 一窍不通 体会不到"),
            *_split("理解不了 想象不到 不会明白"),
        ),
    ),
    ("competence", r"(?:你|你们|对方|他|她)(?:懂[什甚]么|知道[什甚]么|懂个|懂啥)"),
    (
        "competence",
        rf"连{_CLAUSE_CHAR}{{1,15}}都(?:不懂|不知道|不会|搞不清|分不清|弄不明白|写不出|做不到"
        r"|说不清|算不清|看不懂|只(?:看|读)(?:了)?一半)",
    ),
    # sarcasm about how far the person read ("黄先生只读到 157 页", "你们只读到第 5 页"; not
    # the speaker's own, and not "只看到第 12 页提到", where the page is where it is seen)
    ("competence", r"(?<!我)(?<!我们)只读到(?:第)?\s*\d+\s*页"),
    # the addressee called gullible, as the English lexicon's "gullible" ("还是你太好骗？"; not
    # "骗子以为老人家好骗", the victims of a fraud)
    ("insult", r"(?:你|您)(?:们)?(?:也|就|是)?(?:太|很|真|真是|这么|那么|实在)?好骗"),
    ("competence", r"连基本(?:的)?[^，,。]{0,6}都没有"),
    ("experience", rf"连{_CLAUSE_CHAR}{{1,10}}都没(?:有)?{_ZH_DONE}过"),
    (
        "experience",
        rf"{_ZH_PERSON}{_CLAUSE_CHAR}{{0,10}}(?:从来|从|根本|压根|肯定|显然|一定)?没(?:有)?"
        rf"(?:在{_CLAUSE_CHAR}{{1,8}})?" + _ZH_NEVER_DID,
    ),
    (
        "experience",
        rf"{_ZH_PERSON}{_CLAUSE_CHAR}{{0,6}}(?:肯定|显然|一定)?没有(?:孩子|小孩|工作|经验)",
    ),
    ("experience", r"坐办公室|不下基层|从小在城里长大|城里长大|含着金钥匙|没吃过苦|不食人间烟火"),
    # a debater's standing to speak, not eligibility: "你没资格谈", "你有什么资格？",
    # "对方有什么资格评价", never "没有资格结婚" (a law's eligibility), "非会员没有资格发言"
    # (a rule on a class of people) nor "我们有什么资格说" (the speaker's own side)
    (
        "disqualify",
        rf"{_ZH_PERSON}{_ZH_NOT_SELF}(?:有[什甚]么|哪有|没有|没)资格"
        rf"(?:{_ZH_STANDING}|(?<=[什甚]么资格)(?=[？?]))",
    ),
    ("disqualify", r"也配|不配(?:谈|说|评价|讨论)|轮不到(?:你|你们)"),
    # "你凭什么评价": by what right; "你凭什么说两个同性之间...": asks for a reason, as
    # "凭什么认为" does (说 and 讲 only as speaking itself: "凭什么说话", "凭什么说？")
    (
        "disqualify",
        rf"{_ZH_PERSON}[^。；;！!？?]{{0,10}}凭[什甚]么"
        rf"(?:(?![说讲]){_ZH_STANDING}|[说讲](?:话|三道四)?(?=[，,。；;！!？?]|$))",
    ),
    ("disqualify", r"就别(?:来|在这里|再)?(?:谈|说|评价|讨论|发言|教|插嘴|指手画脚)|闭嘴"),
    (
        "motive",
        rf"{_ZH_PERSON}[^。；;！!？?]{{0,12}}(?:拿|收)(?:了|着)?{_CLAUSE_CHAR}{{0,10}}"
        r"(?:钱|好处|工资|红包|回扣|经费)",
    ),
    ("motive", r"被[^，,。]{0,4}收买|屁股(?:决定|坐在)|既得利益者"),
    ("motive", r"是[^，,。]{0,6}(?:派来的|的托|水军|托儿)"),
    (
        "motive",
        rf"{_ZH_PERSON}[^。；;！!？?]{{0,20}}(?:当然|自然|难怪)(?:会|要)?(?:这么说|反对|支持|替|维护|帮)",
    ),
    # "反方不是替企业说话": a motive denied (the speaker's own side, as a rule) is no charge
    (
        "motive",
        rf"{_ZH_PERSON}[^。；;！!？?]{{0,12}}(?<!不是)(?<!并非)(?<!没有)替[^，,。]{{1,8}}说话",
    ),
    # sarcasm about what the speaker understands, psychologising, shame
    ("competence", r"(?:你|您)(?:不晓得|不知道|不懂|不明白)[^，,。？?]{0,12}是[什甚]么意思"),
    ("competence", r"好歹说对了|真理王"),
    (
        "speaker",
        r"(?:你|您|你们)(?:心中|心里)(?:有没有|还有没有)|(?:你|您)(?:还)?有(?:没有)?羞耻心",
    ),
    ("speaker", r"羞耻心的话|(?:你|您)的肩膀在哪|(?:你|您)已经不可爱|执政无能"),
    ("speaker", r"潜意识(?:的)?(?:部分|作用|因素|在作怪)|(?:你|您)的情绪调动"),
    ("lying", r"(?:一开始|一直|从头到尾|从来)(?:就)?(?:在)?(?:说谎|撒谎|骗人)"),
    ("motive", r"人命[^。！？!?]{0,10}(?:不要紧|不值钱)|选票(?:比较|最|更)(?:要紧|重要)"),
    # lies and fabrication as a label on the speaker, a mind called broken, a hidden motive
    (
        "lying",
        r"谎话连篇|满口(?:谎言|谎话|胡言)|(?:不要|别)(?:再)?(?:乱掰|乱讲|胡扯|胡说)",
    ),
    ("lying", rf"{_ZH_PERSON}{_CLAUSE_CHAR}{{0,6}}胡说八道"),
    ("insult", r"(?:头壳|脑袋|头脑)(?:坏去|坏掉|坏了|有问题|进水)|泼皮|耍赖|无赖"),
    ("motive", r"(?:你|您|你们|他|她)(?:的)?心(?:中|里|里面)有鬼"),
    ("competence", r"(?:你|您)(?:不会|不可能)比我(?:清楚|懂|了解|明白)"),
    # insults used as labels of a person or their words: "垃圾言论", "他们本身就是垃圾",
    # "毫无廉耻", "没有心肝的人", and a sentence that is nothing but the insult ("没有家教")
    (
        "insult",
        r"垃圾的垃圾|垃圾(?:言论|议员|政客)|垃圾堆里的人"
        r"|(?:自己|他们|你们|你|他|她)(?:本身)?(?:就|都)?是垃圾",
    ),
    ("insult", r"(?:毫无|绝无|不知|没有|没)廉耻|(?:没有|没)心肝的(?:人|议员)|狼心狗肺"),
    # swearing at the addressee ("你他妈的不要再…") and the common insult of a person as a
    # tortoise ("王八蛋", "这些困在瓮中的王八乌龟")
    # (bare "你妈的" only as an exclamation: "你妈的养老金" is the addressee's mother's pension)
    (
        "insult",
        r"(?:你|您|你们)(?:这个)?(?:他妈的|妈的(?=[，,。！!？?\s]|$))|王八(?:蛋|乌龟)|乌龟王八",
    ),
    (
        "insult",
        r"^(?:(?:真是|简直|太)?(?:没有家教|没家教|没教养|无耻|不要脸|人渣|败类|卑鄙)"
        r"[^\u4e00-\u9fff]*)+$",
    ),
    # a political label on the person ("你現在是不是獨裁啊")
    # (not "你是独裁政权的受害者", "假如你是独裁者": a regime named, a hypothetical)
    (
        "speaker",
        r"(?<!假如)(?<!如果)(?<!假设)(?<!要是)(?<!若)(?:你|您|你们)(?:现在|根本|简直|分明|就)?"
        r"(?:是不是|就是|真是|是)(?:在)?独裁(?![政统体主国制者])",
    ),
    # sarcasm about what the person understands, as a question ("你了解不了解？", "你不清楚，
    # 你还回答我？"; not "你知不知道…", an interpellation's ordinary question)
    (
        "competence",
        r"(?:你|您|你们)(?:到底|究竟|真的)?(?:了解不了解|懂不懂|清不清楚|明不明白)"
        r"|(?:你|您|你们)(?:根本|都)?(?:不清楚|不了解|不懂|不知道)[，,]\s*(?:你|您|你们)"
        r"(?:还|怎么|凭什么)",
    ),
    # a motive put on what the person says ("只是为了继续歧视才讲的话"), a deceit charged
    # ("都是在骗我们", not "被骗")
    (
        "motive",
        # (not the speaker's own: "我们就是为了保护消费者才提出")
        r"(?<!我)(?<!我们)(?<!咱们)(?<!本席)(?:只是|就是|都是|无非是|不过是)为了[^。，,！？?!]{1,15}才"
        r"(?:讲|说|这么说|这样说|这么做|提出)",
    ),
    (
        "lying",
        r"(?<!被)(?:欺骗|骗)(?:了)?(?:我们|大家|人民|市民|民众|所有人|每一个人|老百姓|全民|国人)",
    ),
)

EN_ATTACKS = tuple((kind, re.compile(p)) for kind, p in _EN_PATTERNS)
"""English attack forms, each with its kind (the key of its description)."""
ZH_ATTACKS = tuple((kind, re.compile(p)) for kind, p in _ZH_PATTERNS)
"""Chinese attack forms, each with its kind."""
_NAMED = {
    False: re.compile(rf"\b{_PERSON}"),
    True: re.compile(_ZH_PERSON),
}
"""The person a form opens with: a clause that names nobody skips those forms."""
_OPENS_WITH_PERSON = {
    False: tuple(p.pattern.startswith(rf"\b{_PERSON}") for _, p in EN_ATTACKS),
    True: tuple(p.pattern.startswith(_ZH_PERSON) for _, p in ZH_ATTACKS),
}


def _top_level_branch(pattern: str) -> bool:
    """Whether ``pattern`` has a ``|`` outside every group and character class (then a
    prefix binds only its first branch)."""
    depth, in_class, escaped = 0, False, False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            return True
    return False


def _person_forms(
    prefix: str, attacks: tuple[tuple[str, re.Pattern[str]], ...], opens: tuple[bool, ...]
) -> tuple[re.Pattern[str], tuple[bool, ...]]:
    """One regex for the forms that open with the person (``prefix`` + the rest of each,
    the prefix matched once per position instead of once per form), and which forms it
    stands for: a clause it does not match matches none of them. Forms with a top-level
    alternative, or a back-reference, are left out and always tried."""
    merged = tuple(
        needs
        and not _top_level_branch(p.pattern[len(prefix) :])
        and not re.search(r"\\\d|\(\?P=", p.pattern)
        for (_, p), needs in zip(attacks, opens, strict=True)
    )
    rests = [p.pattern[len(prefix) :] for (_, p), m in zip(attacks, merged, strict=True) if m]
    return re.compile(prefix + _any(*rests) if rests else "(?!)"), merged


_PERSON_FORMS = {
    False: _person_forms(rf"\b{_PERSON}", EN_ATTACKS, _OPENS_WITH_PERSON[False]),
    True: _person_forms(_ZH_PERSON, ZH_ATTACKS, _OPENS_WITH_PERSON[True]),
}
"""Per language: the forms opening with a person as one regex, and which forms it covers
(checked once per clause: most clauses match none, and are spared every such form)."""
_GATES = {
    False: GateSet([Gated(p) for _, p in EN_ATTACKS]),
    True: GateSet([Gated(p) for _, p in ZH_ATTACKS]),
}
"""Each form gated by the words every match of it contains (``moot.regex_gate``): a
clause without them is not searched; the set finds the forms a clause may match at once."""
_LATIN = re.compile("[A-Za-z]")
_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff]")

_ZH_DISOWN = re.compile(
    r"不是说|并不是说|没有说|不是在说|并非说|不是要说|不是指责|无意攻击|不是攻击"
)


# ---- a pejorative aimed at a person, in any wording ----------------------------------------

_EN_TARGET = re.compile(
    r"\b(?:you|your|you're|you've|you'd|yourself|he|his|him|she|her|hers|himself|herself"
    r"|my (?:learned |honourable |honorable )?(?:opponents?|friends?|colleagues?)"
    r"|the (?:other|opposing) (?:side|team|speaker)|the opposition"
    r"|the (?:gentleman|lady|member|speaker|man|woman) opposite|this speaker"
    r"|the (?:right )?hon(?:\.|ourable) (?:and (?:learned|gallant) )?(?:gentleman|lady|member)"
    r"|^(?:and (?:learned|gallant) )?(?:gentleman|lady))\b"
)
_EN_PEJORATIVE = re.compile(
    r"\b"
    + _any(
        *_split("ignorant ignorance clueless stupid stupidity dumb idiot idiots idiotic moron"),
        *_split("moronic fool fools foolish imbecile incompetent incompetence arrogant"),
        *_split("arrogance hypocrite hypocrites hypocritical hypocrisy liar liars dishonest"),
        *_split("dishonesty shill puppet mouthpiece stooge crony zealot fanatic crank troll"),
        *_split("clown buffoon laughingstock dilettante charlatan fraud quack coward bully"),
        *_split("snob elitist spoiled spoilt hysterical paranoid delusional deluded unhinged"),
        *_split("senile childish immature gullible brainwashed indoctrinated illiterate"),
        *_split("uneducated ignoramus know-nothing know-it-all smug condescending"),
        *_split("sanctimonious self-righteous pompous"),
        "conspiracy theorists?",
        "trust-fund",
        "silver spoon",
        "ivory tower",
        "armchair [a-z]+",
        "career politician",
        "out of touch",
        "(?:too|so|overly|very|being|getting|far too) emotional",
        "(?:no|lacks?|without any) common sense",
        "(?:never|not once) (?:had|held) a real job",
        "wouldn't (?:recognise|recognize) (?:an? |the )?[a-z -]{1,30} if",
        "(?:never|not once) set foot",
        "impartial (?:observer|judge|voice)",
    )
    + r"\b"
)
"""Words that, said of a person, attack them; an argument cannot be a hypocrite."""
_EN_ARGUMENT = re.compile(
    r"\b"
    + _any(
        *_split("argument claim case point reasoning logic figure number data evidence study"),
        *_split("studies report survey statistic proposal plan policy idea analysis example"),
        *_split("comparison analogy premise conclusion position view theory model estimate"),
        *_split("assumption approach law scheme tax ban rule measure motion speech answer"),
        *_split("response objection research paper article method system"),
    )
    + r"s?\b"
)
_EN_TYPICAL = re.compile(
    r"(?:^|[.!?:;]\s*)typical(?: of)?(?: an?)? "
    + _any(
        *_split("academic academics politician politicians lawyer banker lobbyist bureaucrat"),
        *_split("economist journalist liberal conservative leftist lefty boomer millennial"),
        *_split("activist teenager student professor elite elites"),
    )
    + r"\b"
)
_EN_IF_YOU_KNEW = re.compile(
    r"\b(?:if|had) you (?:had )?(?:ever|actually|bothered to|once)\b[^.;]{0,60}\byou(?:'d| would)"
    r" (?:know|understand|see|realise|realize|think twice)\b"
    # "if he read the newspapers he might find out": the person's reading mocked
    r"|\bif (?:you|he|she) (?:read|reads|looked at|bothered to read)\b[^.;]{0,40}"
    r"\b(?:you|he|she) (?:might|would|could|'d) (?:find out|know|learn|discover|realise|realize"
    r"|understand)\b"
)

_EN_REPORTED = re.compile(
    r"\b(?:said|says|say|called|calls|call|claimed|claims|described|describes|thinks|think"
    r"|thought|believes|believe|argued|argues|told|tells|considers|considered|find|finds|found)\b"
)
_ZH_REPORTED = re.compile(r"说|认为|觉得|称|指责|批评|形容")
_AIM_REACH = (45, 14)
"""How far (characters of English, of Chinese) a pejorative may follow its target."""
_ZH_TARGET = re.compile(r"你|您|对方|对手|辩友|他|她|这位|那位|此人|的人|这种人")
_ZH_PEJORATIVE = re.compile(
    _any(
        *_split("无知 傲慢 自大 愚蠢 白痴 弱智 脑残 天真 幼稚 外行 门外汉 骗子 伪君子 虚伪 双标"),
        *_split("小丑 懦夫 键盘侠 井底之蛙 不学无术 孤陋寡闻 情绪化 歇斯底里 偏激 象牙塔 书呆子"),
        *_split("死读书 纸上谈兵 不接地气 乳臭未干 毛头小子 老古董 老顽固 食古不化 迂腐 没文化"),
        *_split("没见识 没常识 既得利益 水军 五毛 公知 自以为是 不懂装懂 吃过亏 没离开过 小学水平"),
        "水平(?:还)?停留在",
        "智商",
        "脑子",
    )
)
_ZH_MANNER = re.compile(_ZH_NOT_MANNER[3:-1])
"""The manner of holding a claim after a pejorative ("天真地以为"): see ``_ZH_NOT_MANNER``."""
_ZH_ARGUMENT = re.compile(rf"{_ZH_ARGUMENT_WORDS}|的\s*(?:…|\.\.\.)")
"""An argument noun, or quoted words the person holds ("您方的'可控'只是纸上谈兵": the
pejorative is aimed at the quoted claim)."""


def _aimed_at_person(clause: str, lang_zh: bool) -> bool:
    """Whether the clause calls a person something pejorative: a pejorative follows a
    person (within ``_AIM_REACH`` characters) with no argument noun and no verb of saying
    between them, so "you are a hypocrite" counts, and neither "your proposal is naive"
    nor "she said the minister was out of touch" does."""
    target, pejorative, argument = (
        (_ZH_TARGET, _ZH_PEJORATIVE, _ZH_ARGUMENT)
        if lang_zh
        else (_EN_TARGET, _EN_PEJORATIVE, _EN_ARGUMENT)
    )
    reach = _AIM_REACH[1] if lang_zh else _AIM_REACH[0]
    reported = _ZH_REPORTED if lang_zh else _EN_REPORTED
    for person in target.finditer(clause):
        after = clause[person.end() : person.end() + reach]
        match = pejorative.search(after)
        if match is None or (lang_zh and _ZH_MANNER.match(after, match.end())):
            continue
        between = after[: match.start()]
        if not argument.search(between) and not reported.search(between):
            return True
    return False


@lru_cache(maxsize=4096)
def _attack(text: str, lang_zh: bool) -> tuple[str, str] | None:
    """The first attack in ``text``: (its kind, the sentence) or None."""
    for sentence in split_sentences(text):
        kind = _sentence_attack(sentence, lang_zh)
        if kind is not None:
            return kind, sentence
    return None


@lru_cache(maxsize=16384)
def _sentence_attack(sentence: str, lang_zh: bool) -> str | None:
    """The kind of the first attack in one sentence, or None (cached per sentence: turns
    and debates repeat sentences, and the forms are many)."""
    patterns = ZH_ATTACKS if lang_zh else EN_ATTACKS
    disown = _ZH_DISOWN if lang_zh else _EN_DISOWN
    folded = fold(without_quotes(sentence))
    # traditional characters read as simplified: the Chinese forms are written in those
    for clause in clauses(simplified(folded) if lang_zh else folded):
        if disown.search(clause):
            continue
        named = _NAMED[lang_zh].search(clause) is not None
        forms, merged = _PERSON_FORMS[lang_zh]
        spared = named and forms.search(clause) is None
        gates = _GATES[lang_zh]
        for (kind, _), gate, may, needs, covered in zip(
            patterns,
            gates.gates,
            gates.possible(clause),
            _OPENS_WITH_PERSON[lang_zh],
            merged,
            strict=True,
        ):
            if needs and (not named or (spared and covered)):
                continue
            if may and gate.search(clause):
                return kind
        if not lang_zh and (_EN_TYPICAL.search(clause) or _EN_IF_YOU_KNEW.search(clause)):
            return "speaker"
        if _aimed_at_person(clause, lang_zh):
            return "insult"
    return None


def check(transcript: Transcript, index: int) -> Finding | None:
    """Whether turn ``index`` attacks the speaker rather than the argument."""
    turn = transcript.turns[index]
    # the English forms need a Latin letter, the Chinese ones a Chinese character
    found = (_attack(turn.text, lang_zh=False) if _LATIN.search(turn.text) else None) or (
        _attack(turn.text, lang_zh=True) if _CJK.search(turn.text) else None
    )
    if found is None:
        return None
    kind, sentence = found
    cue = message(transcript.lang, f"ad_hominem.{kind}")
    return Finding(
        "ad_hominem", index, turn.side, "ad_hominem", {"cue": cue, "quote": shorten(sentence)}
    )
