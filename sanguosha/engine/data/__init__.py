"""Static tables: the cards (§1.2–1.3), their kinds and names, and the 25 characters (§11).

Everything here is immutable data; the rules live elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules import Msg, Tc
from sanguosha.engine.data.deck import DECK

SUITS = ("spade", "heart", "club", "diamond")
RED_SUITS = frozenset({"heart", "diamond"})
SUIT_SYMBOL = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦", None: ""}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}

# id -> (english, chinese, kind, extra) ; kind in basic/trick/delayed/weapon/armor/plus_horse/minus_horse
CARD_TYPES: dict[str, tuple[str, str, str, int]] = {
    "slash": (Tc("sanguosha card", "Kill"), "杀", "basic", 0),
    "jink": (Tc("sanguosha card", "Dodge"), "闪", "basic", 0),
    "peach": (Tc("sanguosha card", "Peach"), "桃", "basic", 0),
    "dismantlement": (Tc("sanguosha card", "Dismantle"), "过河拆桥", "trick", 0),
    "snatch": (Tc("sanguosha card", "Snatch"), "顺手牵羊", "trick", 0),
    "duel": (Tc("sanguosha card", "Duel"), "决斗", "trick", 0),
    "collateral": (Tc("sanguosha card", "Borrowed Sword"), "借刀杀人", "trick", 0),
    "ex_nihilo": (Tc("sanguosha card", "Something from Nothing"), "无中生有", "trick", 0),
    "nullification": (Tc("sanguosha card", "Negate"), "无懈可击", "trick", 0),
    "savage_assault": (Tc("sanguosha card", "Barbarian Invasion"), "南蛮入侵", "trick", 0),
    "archery_attack": (Tc("sanguosha card", "Arrow Barrage"), "万箭齐发", "trick", 0),
    "god_salvation": (Tc("sanguosha card", "Peach Garden"), "桃园结义", "trick", 0),
    "amazing_grace": (Tc("sanguosha card", "Bumper Harvest"), "五谷丰登", "trick", 0),
    "lightning": (Tc("sanguosha card", "Lightning"), "闪电", "delayed", 0),
    "indulgence": (Tc("sanguosha card", "Indulgence"), "乐不思蜀", "delayed", 0),
    "crossbow": (Tc("sanguosha card", "Zhuge Crossbow"), "诸葛连弩", "weapon", 1),
    "qinggang_sword": (Tc("sanguosha card", "Green Steel Sword"), "青釭剑", "weapon", 2),
    "ice_sword": (Tc("sanguosha card", "Ice Sword"), "寒冰剑", "weapon", 2),
    "double_swords": (Tc("sanguosha card", "Yin-Yang Swords"), "雌雄双股剑", "weapon", 2),
    "blade": (Tc("sanguosha card", "Green Dragon Blade"), "青龙偃月刀", "weapon", 3),
    "spear": (Tc("sanguosha card", "Serpent Spear"), "丈八蛇矛", "weapon", 3),
    "axe": (Tc("sanguosha card", "Stone Cleaving Axe"), "贯石斧", "weapon", 3),
    "halberd": (Tc("sanguosha card", "Sky Piercing Halberd"), "方天画戟", "weapon", 4),
    "kylin_bow": (Tc("sanguosha card", "Kirin Bow"), "麒麟弓", "weapon", 5),
    "eight_diagram": (Tc("sanguosha card", "Eight Trigrams"), "八卦阵", "armor", 0),
    "nioh_shield": (Tc("sanguosha card", "Renwang Shield"), "仁王盾", "armor", 0),
    "jueying": (Tc("sanguosha card", "Jueying"), "绝影", "plus_horse", 0),
    "dilu": (Tc("sanguosha card", "Dilu"), "的卢", "plus_horse", 0),
    "zhuahuangfeidian": (Tc("sanguosha card", "Zhuahuang Feidian"), "爪黄飞电", "plus_horse", 0),
    "chitu": (Tc("sanguosha card", "Chitu"), "赤兔", "minus_horse", 0),
    "dayuan": (Tc("sanguosha card", "Dayuan"), "大宛", "minus_horse", 0),
    "zixing": (Tc("sanguosha card", "Zixing"), "紫骍", "minus_horse", 0),
}
EQUIP_SLOTS = ("weapon", "armor", "plus_horse", "minus_horse")
AREA_TRICKS = frozenset({"savage_assault", "archery_attack", "god_salvation", "amazing_grace"})
SELF_CARDS = frozenset({"peach", "ex_nihilo", "lightning"})


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card of §1.3."""

    num: int
    id: str
    suit: str
    rank: int
    set: str

    @property
    def kind(self) -> str:
        return CARD_TYPES[self.id][2]

    @property
    def color(self) -> str:
        return "red" if self.suit in RED_SUITS else "black"


CARDS: dict[int, Card] = {n: Card(n, cid, s, r, st) for (n, cid, s, r, st) in DECK}
EX_CARDS = frozenset(n for n, c in CARDS.items() if c.set == "EX")


def deck_numbers(deck: str) -> list[int]:
    """The card numbers of a deck config: ``standard_ex`` (108) or ``standard`` (104)."""
    return [n for n in sorted(CARDS) if deck == "standard_ex" or n not in EX_CARDS]


def kind_of(card_id: str) -> str:
    return CARD_TYPES[card_id][2]


def weapon_range(card_id: str) -> int:
    return CARD_TYPES[card_id][3]


def is_trick(card_id: str) -> bool:
    return kind_of(card_id) in ("trick", "delayed")


def is_equipment(card_id: str) -> bool:
    return kind_of(card_id) in EQUIP_SLOTS


def card_label(num: int, lang: str = "en") -> str:
    """``Kill ♠7`` / ``杀♠7``."""
    c = CARDS[num]
    mark = f"{SUIT_SYMBOL[c.suit]}{RANK_TEXT.get(c.rank, c.rank)}"
    if lang == "zh":
        return f"{CARD_TYPES[c.id][1]}{mark}"
    # a Msg: the app layer says the card's name in the reader's language
    return Msg("%(name)s %(mark)s", {"name": CARD_TYPES[c.id][0], "mark": mark})


@dataclass(frozen=True, slots=True)
class CharacterInfo:
    """A row of the §11 table."""

    id: str
    name: str
    zh: str
    kingdom: str
    gender: str
    max_hp: int
    skills: tuple[str, ...]


CHARACTERS: dict[str, CharacterInfo] = {c.id: c for c in (
    CharacterInfo("caocao", Tc("sanguosha character", "Cao Cao"), "曹操", "wei", "M", 4, ("jianxiong", "hujia")),
    CharacterInfo("simayi", Tc("sanguosha character", "Sima Yi"), "司马懿", "wei", "M", 3, ("guicai", "fankui")),
    CharacterInfo("xiahoudun", Tc("sanguosha character", "Xiahou Dun"), "夏侯惇", "wei", "M", 4, ("ganglie",)),
    CharacterInfo("zhangliao", Tc("sanguosha character", "Zhang Liao"), "张辽", "wei", "M", 4, ("tuxi",)),
    CharacterInfo("xuchu", Tc("sanguosha character", "Xu Chu"), "许褚", "wei", "M", 4, ("luoyi",)),
    CharacterInfo("guojia", Tc("sanguosha character", "Guo Jia"), "郭嘉", "wei", "M", 3, ("tiandu", "yiji")),
    CharacterInfo("zhenji", Tc("sanguosha character", "Zhen Ji"), "甄姬", "wei", "F", 3, ("luoshen", "qingguo")),
    CharacterInfo("liubei", Tc("sanguosha character", "Liu Bei"), "刘备", "shu", "M", 4, ("rende", "jijiang")),
    CharacterInfo("guanyu", Tc("sanguosha character", "Guan Yu"), "关羽", "shu", "M", 4, ("wusheng",)),
    CharacterInfo("zhangfei", Tc("sanguosha character", "Zhang Fei"), "张飞", "shu", "M", 4, ("paoxiao",)),
    CharacterInfo("zhugeliang", Tc("sanguosha character", "Zhuge Liang"), "诸葛亮", "shu", "M", 3, ("guanxing", "kongcheng")),
    CharacterInfo("zhaoyun", Tc("sanguosha character", "Zhao Yun"), "赵云", "shu", "M", 4, ("longdan",)),
    CharacterInfo("machao", Tc("sanguosha character", "Ma Chao"), "马超", "shu", "M", 4, ("mashu", "tieqi")),
    CharacterInfo("huangyueying", Tc("sanguosha character", "Huang Yueying"), "黄月英", "shu", "F", 3, ("jizhi", "qicai")),
    CharacterInfo("sunquan", Tc("sanguosha character", "Sun Quan"), "孙权", "wu", "M", 4, ("zhiheng", "jiuyuan")),
    CharacterInfo("ganning", Tc("sanguosha character", "Gan Ning"), "甘宁", "wu", "M", 4, ("qixi",)),
    CharacterInfo("lvmeng", Tc("sanguosha character", "Lü Meng"), "吕蒙", "wu", "M", 4, ("keji",)),
    CharacterInfo("huanggai", Tc("sanguosha character", "Huang Gai"), "黄盖", "wu", "M", 4, ("kurou",)),
    CharacterInfo("zhouyu", Tc("sanguosha character", "Zhou Yu"), "周瑜", "wu", "M", 3, ("yingzi", "fanjian")),
    CharacterInfo("daqiao", Tc("sanguosha character", "Da Qiao"), "大乔", "wu", "F", 3, ("guose", "liuli")),
    CharacterInfo("luxun", Tc("sanguosha character", "Lu Xun"), "陆逊", "wu", "M", 3, ("qianxun", "lianying")),
    CharacterInfo("sunshangxiang", Tc("sanguosha character", "Sun Shangxiang"), "孙尚香", "wu", "F", 3, ("xiaoji", "jieyin")),
    CharacterInfo("huatuo", Tc("sanguosha character", "Hua Tuo"), "华佗", "qun", "M", 3, ("qingnang", "jijiu")),
    CharacterInfo("lvbu", Tc("sanguosha character", "Lü Bu"), "吕布", "qun", "M", 4, ("wushuang",)),
    CharacterInfo("diaochan", Tc("sanguosha character", "Diao Chan"), "貂蝉", "qun", "F", 3, ("lijian", "biyue")),
)}
LORD_CHARACTERS = ("caocao", "liubei", "sunquan")
LORD_SKILLS = frozenset({"hujia", "jijiang", "jiuyuan"})

SKILL_NAMES: dict[str, tuple[str, str]] = {
    "jianxiong": (Tc("sanguosha skill", "Villainous Hero"), "奸雄"), "hujia": (Tc("sanguosha skill", "Royal Escort"), "护驾"),
    "guicai": (Tc("sanguosha skill", "Demonic Talent"), "鬼才"), "fankui": (Tc("sanguosha skill", "Retaliation"), "反馈"),
    "ganglie": (Tc("sanguosha skill", "Eye for an Eye"), "刚烈"), "tuxi": (Tc("sanguosha skill", "Sudden Strike"), "突袭"),
    "luoyi": (Tc("sanguosha skill", "Bare-Chested"), "裸衣"), "tiandu": (Tc("sanguosha skill", "Envy of Heaven"), "天妒"),
    "yiji": (Tc("sanguosha skill", "Bequeathed Strategy"), "遗计"), "luoshen": (Tc("sanguosha skill", "Goddess Luo"), "洛神"),
    "qingguo": (Tc("sanguosha skill", "Beauty"), "倾国"), "rende": (Tc("sanguosha skill", "Benevolence"), "仁德"), "jijiang": (Tc("sanguosha skill", "Rouse"), "激将"),
    "wusheng": (Tc("sanguosha skill", "Warrior Saint"), "武圣"), "paoxiao": (Tc("sanguosha skill", "Roar"), "咆哮"),
    "guanxing": (Tc("sanguosha skill", "Stargazing"), "观星"), "kongcheng": (Tc("sanguosha skill", "Empty City"), "空城"),
    "longdan": (Tc("sanguosha skill", "Dragon Heart"), "龙胆"), "mashu": (Tc("sanguosha skill", "Horsemanship"), "马术"),
    "tieqi": (Tc("sanguosha skill", "Iron Cavalry"), "铁骑"), "jizhi": (Tc("sanguosha skill", "Wisdom"), "集智"), "qicai": (Tc("sanguosha skill", "Genius"), "奇才"),
    "zhiheng": (Tc("sanguosha skill", "Balance of Power"), "制衡"), "jiuyuan": (Tc("sanguosha skill", "Rescue"), "救援"),
    "qixi": (Tc("sanguosha skill", "Surprise Raid"), "奇袭"), "keji": (Tc("sanguosha skill", "Self-Mastery"), "克己"),
    "kurou": (Tc("sanguosha skill", "Self-Injury"), "苦肉"), "yingzi": (Tc("sanguosha skill", "Handsome"), "英姿"),
    "fanjian": (Tc("sanguosha skill", "Sow Dissension"), "反间"), "guose": (Tc("sanguosha skill", "National Beauty"), "国色"),
    "liuli": (Tc("sanguosha skill", "Deflection"), "流离"), "qianxun": (Tc("sanguosha skill", "Humility"), "谦逊"),
    "lianying": (Tc("sanguosha skill", "Linked Camps"), "连营"), "xiaoji": (Tc("sanguosha skill", "Warrior Lady"), "枭姬"),
    "jieyin": (Tc("sanguosha skill", "Marriage"), "结姻"), "qingnang": (Tc("sanguosha skill", "Green Satchel"), "青囊"),
    "jijiu": (Tc("sanguosha skill", "First Aid"), "急救"), "wushuang": (Tc("sanguosha skill", "Peerless"), "无双"),
    "lijian": (Tc("sanguosha skill", "Sow Discord"), "离间"), "biyue": (Tc("sanguosha skill", "Eclipse the Moon"), "闭月"),
    # weapon / armor abilities that open asks
    "eight_diagram": (Tc("sanguosha skill", "Eight Trigrams"), "八卦阵"), "blade": (Tc("sanguosha skill", "Green Dragon Blade"), "青龙偃月刀"),
    "axe": (Tc("sanguosha skill", "Stone Cleaving Axe"), "贯石斧"), "ice_sword": (Tc("sanguosha skill", "Ice Sword"), "寒冰剑"),
    "kylin_bow": (Tc("sanguosha skill", "Kirin Bow"), "麒麟弓"), "double_swords": (Tc("sanguosha skill", "Yin-Yang Swords"), "雌雄双股剑"),
    "halberd": (Tc("sanguosha skill", "Sky Piercing Halberd"), "方天画戟"), "spear": (Tc("sanguosha skill", "Serpent Spear"), "丈八蛇矛"),
}

IDENTITY_NAMES = {"lord": (Tc("sanguosha identity", "Lord"), "主公"), "loyalist": (Tc("sanguosha identity", "Loyalist"), "忠臣"),
                  "rebel": (Tc("sanguosha identity", "Rebel"), "反贼"), "renegade": (Tc("sanguosha identity", "Renegade"), "内奸")}

# players -> (lord, loyalist, rebel, renegade), §2.2
IDENTITY_TABLE = {2: (1, 0, 1, 0), 3: (1, 0, 1, 1), 4: (1, 1, 1, 1), 5: (1, 1, 2, 1),
                  6: (1, 1, 3, 1), 7: (1, 2, 3, 1), 8: (1, 2, 4, 1), 9: (1, 3, 4, 1),
                  10: (1, 3, 4, 2)}
IDENTITY_VARIANTS = {"printed": {}, "double_renegade": {6: (1, 1, 2, 2), 8: (1, 2, 3, 2)},
                     "single_renegade_10": {10: (1, 3, 5, 1)}}


def identity_counts(players: int, variant: str = "printed") -> tuple[int, int, int, int]:
    """(lord, loyalist, rebel, renegade) for a player count and identity variant (§2.2)."""
    return IDENTITY_VARIANTS[variant].get(players, IDENTITY_TABLE[players])
