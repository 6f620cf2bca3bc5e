"""Discourse cues several detectors read, in English and Chinese.

Each is a compiled pattern over folded text (lower case, full-width forms folded),
the long ones gated by the words every match contains (``moot.regex_gate``):
how a speaker reports an opponent, rebuts, concedes, agrees, addresses the debate
or changes the subject. Lexicons that only one detector uses live in its module.
"""

from __future__ import annotations

import re

from moot.regex_gate import gated

ATTRIBUTION = gated(
    r"\b(?:my|our) (?:opponents?|friends?|colleagues?) (?:says?|said|claims?|claimed|argues?|argued"
    r"|thinks?|believes?|suggests?|suggested|insists?|tells? us|told us|wants? us to believe)\b"
    r"|\b(?:the (?:other|opposing) (?:side|team|speaker)|the opposition|they|you)"
    r" (?:say|said|says|claim|claimed|claims|argue|argued|argues|suggest|suggested|insist"
    r"|insists)\b"
    r"|\b[\w'-]+(?:'s)? (?:speaker|side|team|representative) (?:says?|said|claims?|argues?)\b"
    r"|\baccording to (?:my opponent|the other side|the opposition)\b"
    r"|\bthe (?:claim|idea|notion|argument|suggestion|assertion|belief|view) that\b"
    r"|\bwe have heard (?:that|it said)\b|\bwe are told\b|\bit has been (?:said|claimed|argued)\b"
    r"|对方(?:辩友|辩手)?(?:说|认为|提到|声称|表示|指出|强调|一再强调|口口声声)"
    r"|(?:的辩手|的那位|的代表)(?:说|认为|提到|声称)"
    r"|(?:有人|对手)(?:说|认为|声称)|所谓|这种说法|对方的说法|对方所说"
)
"""A speaker reporting what an opponent said (typically before answering it)."""

CONTRAST = gated(
    r"\b(?:but|however|yet|nevertheless|nonetheless|whereas|instead|rather than)\b"
    r"|\bmy (?:worry|concern|objection|point) is\b|\bthe (?:real )?(?:problem|question|issue) is\b"
    r"|\bwhat (?:remains|matters)\b"
    r"|但|然而|不过|可是|却|而是|问题在于|关键在于|真正的问题|我方(?:更)?关注|与其"
)
"""A turn towards the speaker's own answer: what follows it is the answer."""

REFUTATION = gated(
    r"\b(?:wrong|untrue|not true|false|misleading|mistaken|a myth|overstates?|ignores?|ignoring"
    r"|fails? to|does not follow|doesn't follow|beside the point|irrelevant|no evidence"
    r"|not the same as|does not mean|doesn't mean|is no reason|unfalsifiable|flawed|nonsense"
    r"|absurd|red herring|straw man|non sequitur|a distraction|misses the point|not the point"
    r"|has nothing to do with|cherry-pick(?:s|ed|ing)?|exaggerat(?:es?|ed|ing|ion))\b"
    r"|并不|并非|不等于|不代表|错误|不对|站不住|忽略|忽视|回避|恰恰|荒谬|不成立|偷换概念|以偏概全"
    r"|答非所问|无关|夸大|断章取义|混淆"
)
"""Words that call a point wrong: the clause they are in answers rather than repeats."""
"""A speaker answering a point rather than accepting it."""

CONCESSION = gated(
    r"\b(?:i|we) (?:(?:now|freely|fully|readily|will|must|have to|do|have|had|'ve|already"
    r"|also|did) )*(?:concede|accept|grant|admit|acknowledge|recognise|recognize|agree)"
    r"(?:d|ed|s)?\b|\b(?:i|we) (?:(?:have|had|'ve|already|also) )*admitted\b"
    r"|\b(?:my opponent|the other side|the opposition|they) (?:is|are) (?:right|correct)\b"
    r"|\bi'll give (?:you|them|my opponent) that\b|\bfair point\b|\bpoint taken\b"
    r"|\bthat is (?:a )?(?:fair|valid|good) point\b"
    r"|我(?:方|们)?(?:已经|也|确实|都|完全|必须)?(?:承认|同意|接受|认可|认同)|不可否认"
    r"|(?:对方|你)说得(?:对|有道理|没错)|这一点(?:对方)?(?:说得)?(?:对|有道理|没错)"
)
"""A speaker granting an opponent's point."""

NEGATED_CONCESSION = gated(
    r"\b(?:i|we) (?:do not|don't|did not|didn't|will not|won't|never|cannot|can't) "
    r"(?:concede|accept|grant|admit|acknowledge|agree)"
    r"|\b(?:i|we) (?:concede|accept|grant|admit) nothing\b"
    r"|我(?:方|们)?(?:不|没有|并不|绝不)(?:承认|同意|接受|认可)"
)

AGREEMENT = gated(
    r"\b(?:my opponents?|the other side|the opposition|the (?:other|opposing) speaker|they|he|she)"
    r" (?:is|are|was|were) (?:absolutely |quite |completely |entirely |simply )?(?:right|correct)\b"
    r"|\b(?:i|we) (?:now |fully |completely |entirely |have to |must )?agree with"
    r" (?:my opponents?|the other side|the opposition|them|him|her|everything)\b"
    r"|\b(?:you|they|my opponents?) (?:have|has|'ve) convinced (?:me|us)\b"
    r"|\b(?:i|we) (?:have |'ve )?changed (?:my|our) minds?\b|\b(?:i|we) (?:was|were) wrong\b"
    r"|(?:对方|你|他|她)(?:辩友|辩手)?说得(?:很|非常|完全)?(?:对|有道理|没错)"
    r"(?!的地方|之处|的部分|的那部分)"
    r"|我(?:方|们)?(?:完全)?(?:同意|赞同|认同)(?:对方|你|你们|他|她)"
    r"|(?:我|我们|我方)被(?:对方|你)?说服|我(?:方|们)?改变了?(?:主意|立场|看法)|是我(?:方|们)?错了"
)
"""A speaker siding with the opponent (a stronger signal than conceding one point)."""

EXPLICIT_AGREEMENT = gated(
    r"\b(?:i|we) (?:also |fully |completely |entirely |totally |strongly )?agree with"
    r" (?:you|your (?:point|view|argument)s?|my opponents?|the other side|the opposition)\b"
    r"|(?<!\bwhere )(?<!\bwherever )"
    r"\b(?:you are|you're|my opponents? (?:is|are)) (?:absolutely |quite |completely )?right\b"
    r"|(?:我|我们|我方)(?:也|完全|非常|十分)?(?:同意|赞同|认同)(?:您|你|对方|他|她)"
    r"(?:的|所说的|提出的)?(?:观点|看法|意见|说法|道理|理由)"
    r"|(?:非常|完全|十分|深表)(?:同意|赞同|认同)(?:您|你|对方|他|她)(?:的|所说的)?(?:观点|看法|意见)"
    r"|对(?:您|你|对方)[^。！？!?]{0,12}(?:深表|表示完全|表示)(?:赞同|同意|认同)"
    r"|(?:对方|你|您|他)(?:辩友)?说得(?:非常|很)?(?:好|对)(?!的地方|之处|的部分|的那部分)"
    r"[！!。]?[^但可却不]{0,6}(?:我|完全)"
    # the speaker granting the other side is right, or stepping out of its own side
    r"|\b(?:you|my opponents?) (?:rightly|correctly) (?:pointed out|point out|noted|note|said"
    r"|say)\b|\b(?:you|my opponents?) (?:make|made|raise|raised) (?:a |an )?(?:very )?"
    r"(?:valid|fair|good|excellent) points?\b"
    r"|\bi know i(?:'m| am) supposed to (?:say|argue)\b|\b(?:let us|let's|we could|perhaps we"
    r" (?:could|can)) find (?:some )?common ground\b"
    r"|\bi (?:don'?t|do not) feel comfortable (?:directly )?(?:criticizing|criticising|arguing"
    r"|debating|attacking)\b"
    r"|正如(?:您|你|对方)(?:辩友)?所(?:指出|说|言|讲)的"
    r"|(?:我|我方)知道(?:我|我方)?(?:应该|本应|本该)(?:在辩论中)?(?:说|主张)"
    r"|(?:我|我方|我们)(?:也|确实|完全)?(?:认可|赞同|同意|认同)(?:您|你|对方)(?:辩友)?的?(?:意见|观点|看法|建议|主张)"
    r"|基于(?:您|你|对方)(?:辩友)?提出的[^。！？]{0,8}(?:建议|观点|意见)"
    r"|(?:寻找|找到|达成)(?:双方的)?共同点|求同存异|实现共赢"
)
"""A speaker saying outright that it agrees with the other side's view ("I agree with my
opponent", "我也同意您的观点", "对您提出的理由深表赞同")."""

META_TALK = gated(
    r"#{2,}\s*(?:instruction|input|response)\b|\binstruction:|\bassistant:"
    r"|\bi apologi[sz]e\b|\bas an ai\b|\bi don'?t feel comfortable\b"
    r"|尊敬的用户|如果您有任何(?:具体的)?问题|祝您在比赛中|希望(?:我的|以上)[^。]{0,12}(?:对您|帮到您|有所帮助)"
    r"|请你帮我写|以下是[^。]{0,12}(?:文章|短文|模板)|文章模板|本回答仅供参考|以上就是针对您"
)
"""A model talking about its task or its reader instead of debating: a leaked prompt
heading, an apology, an assistant's offer of help."""

_NOT_OWNED = "".join(
    rf"(?<!{owner} )"
    for owner in (
        *("your", "their", "his", "her", "its", "my", "our", "own"),
        *("opponent's", "opponents'"),
    )
)
"""Not after a possessive: a person's argument ("your own argument", "my opponents'
argument"), not the one the instructions describe."""
_ZH_NOT_OWNED = "".join(
    rf"(?<!{owner})"
    for owner in (
        *("你的", "您的", "你方", "您方", "对方", "你方的", "您方的", "对方的", "辩友的"),
        *("正方", "反方", "正方的", "反方的", "我方", "我方的"),
        *("他的", "她的", "你们的", "您们的", "他们的", "她们的", "我们的"),
    )
)
"""The same in Chinese: "你的论证应该引用数据", "反方的论点必须包含证据" are said to an
opponent (a side is named 正方 or 反方 in a Chinese debate)."""

SCAFFOLDING = gated(
    # an instruction on how to write the speech, echoed instead of obeyed
    r"\b\d+\s*(?:-|–|to)\s*\d+\s*words\b|\b(?:no more|not more|fewer|less) than \d+ words\b"
    r"|\bat (?:least|most) \d+ words\b"
    # the noun and the modal spelled out (no determiner, no anchor), so the gate has words;
    # not a person's ("your argument should cite sources" is a retort to the opponent)
    rf"|{_NOT_OWNED}\b(?:argument|response|answer|essay|speech|statement|rebuttal)"
    r" (?:should|must) (?:be (?:\d|an? argument|written|in|no|at|between"
    r"|concise|persuasive)|include|contain|use|cite|provide|end|begin|start|consist|not exceed)\b"
    # how to write, said to the writer; not how to argue ("you should cite evidence" is a
    # retort a debater makes)
    r"|\b(?:it|you) (?:must|should) (?:use language|use the original)\b"
    r"|\byou (?:can|may) use any (?:sentence|word|language|example)"
    r"|不(?:少于|超过)\d+字|\d+字(?:以内|左右|以上)|字数(?:在|不|控制|要求|限制)"
    rf"|{_ZH_NOT_OWNED}(?:论点|论证|回答|回复|发言|文章|辩词|陈述)(?:应|应该|必须|需要)"
    r"(?:包含|包括|使用|控制在|不少于|不超过|引用)"
    # the framework's own text where the model gave none
    r"|\b(?:the )?model (?:did not|didn't|failed to) (?:respond\b|(?:return|produce|generate)"
    r"(?: (?:a|an|any))?(?: (?:readable|valid|usable))? (?:response|reply|answer|output|text"
    r"|reasoning)\b)"
    r"|\bfallback (?:response|strategy|text|answer|reply)\b"
    r"|\bno (?:readable )?(?:response|output|reasoning) (?:was )?(?:returned|received)\b"
    r"|模型(?:未|没有|无法)(?:返回|生成|输出)|兜底(?:策略|方案|回复|文本|结论)|推理文本缺失"
    # the framework's turn prompt echoed as the turn ("Topic: <motion>" opening it, "Round 3,
    # your turn: Ethicist"): a label and a turn number, not a speech
    # (the whole sentence: "In round 2, your turn came and you said nothing" is a speech)
    r"|^\W*(?:debate )?topic\s*:"
    r"|(?m:^\W*round \d+\s*[,:.-]?\s*(?:it'?s )?your turn\b\W*(?:[\w'-]+\W*){0,3}$)"
)
"""A sentence that is the debate framework's scaffolding, not a speech: an instruction on how
to write the argument echoed instead of obeyed ("The argument should be 100-200 words in
length.", "不超过500字"), or the framework's fallback where the model returned nothing
("模型未返回可读推理，已使用保守兜底策略"), or its turn prompt echoed ("Topic: ...", "Round 3,
your turn: Ethicist"; a speech that opens with a "Topic:" line and argues is judged on its
argument, ``topic_drift.SCAFFOLDING_SHARE``). Read sentence by sentence (``topic_drift``)."""

_PRESCRIBED_ACT = (
    r"(?:should|must|needs? to|has to) (?:be able to )?(?:use|include|provide|explain|present"
    r"|cite|give) (?:(?:a|an|the|their|his|her|its|specific|concrete|clear) )*(?:examples?"
    r"|evidence|logic|reasons?|sources?|data)\b"
)
PRESCRIBED = gated(_PRESCRIBED_ACT)
"""How to argue, prescribed ("should use a specific example"): read on a whole turn, so the
sentences are only read one by one (``ROLE_PRESCRIPTION``) in a turn that has it."""
ROLE_PRESCRIPTION = re.compile(r"^\W*(?:the )?(?P<role>[^\W\d_][\w' -]{0,40}?) " + _PRESCRIBED_ACT)
"""An instruction to a named speaker on how to argue ("The philosopher should use a specific
example to support their argument"): scaffolding when the role is a side's name or a
debater's ("the speaker", "the debater")."""

SERVICE_TALK = gated(
    r"请(?:您)?提供|若您(?:能|可以)?提供|以便我(?:进一步|为您)?(?:协助|帮助|分析|查)"
    r"|您想(?:查询|查詢|了解|知道)|我将能够|进一步协助|为您(?:提供|查询|查詢|分析)"
    r"|\bplease provide\b|\bif you (?:can|could) provide\b|\bso (?:that )?i can (?:help|assist)\b"
    r"|\bhow can i (?:help|assist)\b|\bwhat would you like (?:me )?to\b"
)
"""A model serving a user who is not in the debate: asking them for input ("请提供公司名称或
代码", "please provide") or offering to look something up for them. Read on simplified
text (``moot.detectors.hanzi``)."""

ENGAGEMENT = re.compile(
    r"\b(?:my opponents?|the opposition|the other side|the opposing side|the motion|this motion"
    r"|this debate|our case|their case|our side|my side|the proposal|this proposal)\b"
    r"|对方|辩友|我方|你方|本方|辩题|对手|我们认为|我认为"
)
"""A speaker addressing the debate itself: the motion, the opponent, the case."""

ADDRESS = re.compile(r"\byou(?:r|rs|'re|'ve|'d|rself)?\b|你(?!们好)|您")
"""A speaker addressing the other speaker directly (a turn of the exchange, not an aside)."""

SUBJECT_CHANGE = gated(
    r"\bspeaking of\b|\bby the way\b"
    r"|\bon an? (?:lighter|different|separate|unrelated|personal|side) note\b|\boff[- ]topic\b"
    r"|\bchanging the subject\b|\bto change the subject\b"
    r"|\bbefore (?:we|i) go (?:any )?further\b|\bas an aside\b|\bincidentally\b|\bunrelated\b"
    r"|\bcan we (?:talk|chat) about\b|\blet me (?:also )?(?:mention|raise|tell you about|talk about"
    r"|share|bring up)\b|\bi (?:would |'d )?(?:also )?(?:like|want) to (?:say|mention|talk|raise"
    r"|share|bring up)\b|\bi (?:also )?want to say something about\b|\banyway,|\bon another topic\b"
    r"|\bnothing to do with (?:this|the) (?:debate|motion)\b"
    r"|顺便|说到这|说到这个|插一句|题外话|另外我想说|我还想说|换个话题|扯远|扯开|讲到这里|跑题|离题"
    r"|和今天的辩题无关|跟今天的辩题无关|说句闲话|说个闲话"
)
"""A speaker announcing a change of subject."""

SUBJECT_CHANGE_LEAD = gated(r"(?:^|[。！？.!?]\s*)说到[^，,。]{1,8}[，,]")
"""Chinese 'speaking of X,' at the start of a sentence."""

DECLARED_STANCE = gated(
    r"\b(?:we|i)(?: still| firmly| therefore| thus)?"
    r" (?:remain|stand|are|am|continue to be|continue to)(?: firmly)?"
    r" (?:(?P<against>opposed to|against)|in favou?r of|for)"
    r" (?:the|this) (?:motion|proposition|resolution)\b"
    r"|\b(?:we|i)(?: still| firmly)? (?:(?P<against2>oppose)|support) (?:the|this)"
    r" (?:motion|proposition|resolution)\b"
    r"|(?:我方|我们|本方)(?:仍然|依然|始终|坚持|坚定地)?"
    r"(?:(?P<against3>反对)|支持|赞成)(?:[“\"「][^”\"」]{1,120}[”\"」])?"
    r"(?:该|这一|本|此)?(?:动议|辩题|议题|命题)"
)
"""A side saying where it stands on the motion ("We remain opposed to the motion",
"我方仍然反对该动议", "我方仍然反对“……”这一动议"); the ``against`` groups mark the
direction."""
FOR_SIDE = re.compile(
    r"^(?:pro|for|正方)\b|^正方|(?:^|\s)(?:pro|for):|正方[：:]"
    # "I (still) support this position", not "I cannot / never support the motion"
    r"|\bi (?!(?:cannot|never|hardly|barely|scarcely|no|not)\b)(?:\w+ )?support (?:this|the)"
    r" (?:position|motion)"
)
AGAINST_SIDE = re.compile(
    r"^(?:con|against|opp)\b|^反方|(?:^|\s)(?:con|against):|反方[：:]|\bagainst\b|\boppose"
)
"""A side whose name or stance says it is for or against the motion ("con", "Against:
...", "反方", "I oppose this position", "I (still) support this position")."""
