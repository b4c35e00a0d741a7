"""Static tables: the cards (§1.2–1.3), their kinds and names, and the 25 characters (§11).

Everything here is immutable data; the rules live elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from sanguosha.engine.data.deck import DECK

SUITS = ("spade", "heart", "club", "diamond")
RED_SUITS = frozenset({"heart", "diamond"})
SUIT_SYMBOL = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦", None: ""}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}

# id -> (english, chinese, kind, extra) ; kind in basic/trick/delayed/weapon/armor/plus_horse/minus_horse
CARD_TYPES: dict[str, tuple[str, str, str, int]] = {
    "slash": ("Kill", "杀", "basic", 0),
    "jink": ("Dodge", "闪", "basic", 0),
    "peach": ("Peach", "桃", "basic", 0),
    "dismantlement": ("Dismantle", "过河拆桥", "trick", 0),
    "snatch": ("Snatch", "顺手牵羊", "trick", 0),
    "duel": ("Duel", "决斗", "trick", 0),
    "collateral": ("Borrowed Sword", "借刀杀人", "trick", 0),
    "ex_nihilo": ("Something from Nothing", "无中生有", "trick", 0),
    "nullification": ("Negate", "无懈可击", "trick", 0),
    "savage_assault": ("Barbarian Invasion", "南蛮入侵", "trick", 0),
    "archery_attack": ("Arrow Barrage", "万箭齐发", "trick", 0),
    "god_salvation": ("Peach Garden", "桃园结义", "trick", 0),
    "amazing_grace": ("Bumper Harvest", "五谷丰登", "trick", 0),
    "lightning": ("Lightning", "闪电", "delayed", 0),
    "indulgence": ("Indulgence", "乐不思蜀", "delayed", 0),
    "crossbow": ("Zhuge Crossbow", "诸葛连弩", "weapon", 1),
    "qinggang_sword": ("Green Steel Sword", "青釭剑", "weapon", 2),
    "ice_sword": ("Ice Sword", "寒冰剑", "weapon", 2),
    "double_swords": ("Yin-Yang Swords", "雌雄双股剑", "weapon", 2),
    "blade": ("Green Dragon Blade", "青龙偃月刀", "weapon", 3),
    "spear": ("Serpent Spear", "丈八蛇矛", "weapon", 3),
    "axe": ("Stone Cleaving Axe", "贯石斧", "weapon", 3),
    "halberd": ("Sky Piercing Halberd", "方天画戟", "weapon", 4),
    "kylin_bow": ("Kirin Bow", "麒麟弓", "weapon", 5),
    "eight_diagram": ("Eight Trigrams", "八卦阵", "armor", 0),
    "nioh_shield": ("Renwang Shield", "仁王盾", "armor", 0),
    "jueying": ("Jueying", "绝影", "plus_horse", 0),
    "dilu": ("Dilu", "的卢", "plus_horse", 0),
    "zhuahuangfeidian": ("Zhuahuang Feidian", "爪黄飞电", "plus_horse", 0),
    "chitu": ("Chitu", "赤兔", "minus_horse", 0),
    "dayuan": ("Dayuan", "大宛", "minus_horse", 0),
    "zixing": ("Zixing", "紫骍", "minus_horse", 0),
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
    name = CARD_TYPES[c.id][0 if lang == "en" else 1]
    sep = " " if lang == "en" else ""
    return f"{name}{sep}{SUIT_SYMBOL[c.suit]}{RANK_TEXT.get(c.rank, c.rank)}"


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
    CharacterInfo("caocao", "Cao Cao", "曹操", "wei", "M", 4, ("jianxiong", "hujia")),
    CharacterInfo("simayi", "Sima Yi", "司马懿", "wei", "M", 3, ("guicai", "fankui")),
    CharacterInfo("xiahoudun", "Xiahou Dun", "夏侯惇", "wei", "M", 4, ("ganglie",)),
    CharacterInfo("zhangliao", "Zhang Liao", "张辽", "wei", "M", 4, ("tuxi",)),
    CharacterInfo("xuchu", "Xu Chu", "许褚", "wei", "M", 4, ("luoyi",)),
    CharacterInfo("guojia", "Guo Jia", "郭嘉", "wei", "M", 3, ("tiandu", "yiji")),
    CharacterInfo("zhenji", "Zhen Ji", "甄姬", "wei", "F", 3, ("luoshen", "qingguo")),
    CharacterInfo("liubei", "Liu Bei", "刘备", "shu", "M", 4, ("rende", "jijiang")),
    CharacterInfo("guanyu", "Guan Yu", "关羽", "shu", "M", 4, ("wusheng",)),
    CharacterInfo("zhangfei", "Zhang Fei", "张飞", "shu", "M", 4, ("paoxiao",)),
    CharacterInfo("zhugeliang", "Zhuge Liang", "诸葛亮", "shu", "M", 3, ("guanxing", "kongcheng")),
    CharacterInfo("zhaoyun", "Zhao Yun", "赵云", "shu", "M", 4, ("longdan",)),
    CharacterInfo("machao", "Ma Chao", "马超", "shu", "M", 4, ("mashu", "tieqi")),
    CharacterInfo("huangyueying", "Huang Yueying", "黄月英", "shu", "F", 3, ("jizhi", "qicai")),
    CharacterInfo("sunquan", "Sun Quan", "孙权", "wu", "M", 4, ("zhiheng", "jiuyuan")),
    CharacterInfo("ganning", "Gan Ning", "甘宁", "wu", "M", 4, ("qixi",)),
    CharacterInfo("lvmeng", "Lü Meng", "吕蒙", "wu", "M", 4, ("keji",)),
    CharacterInfo("huanggai", "Huang Gai", "黄盖", "wu", "M", 4, ("kurou",)),
    CharacterInfo("zhouyu", "Zhou Yu", "周瑜", "wu", "M", 3, ("yingzi", "fanjian")),
    CharacterInfo("daqiao", "Da Qiao", "大乔", "wu", "F", 3, ("guose", "liuli")),
    CharacterInfo("luxun", "Lu Xun", "陆逊", "wu", "M", 3, ("qianxun", "lianying")),
    CharacterInfo("sunshangxiang", "Sun Shangxiang", "孙尚香", "wu", "F", 3, ("xiaoji", "jieyin")),
    CharacterInfo("huatuo", "Hua Tuo", "华佗", "qun", "M", 3, ("qingnang", "jijiu")),
    CharacterInfo("lvbu", "Lü Bu", "吕布", "qun", "M", 4, ("wushuang",)),
    CharacterInfo("diaochan", "Diao Chan", "貂蝉", "qun", "F", 3, ("lijian", "biyue")),
)}
LORD_CHARACTERS = ("caocao", "liubei", "sunquan")
LORD_SKILLS = frozenset({"hujia", "jijiang", "jiuyuan"})

SKILL_NAMES: dict[str, tuple[str, str]] = {
    "jianxiong": ("Villainous Hero", "奸雄"), "hujia": ("Royal Escort", "护驾"),
    "guicai": ("Demonic Talent", "鬼才"), "fankui": ("Retaliation", "反馈"),
    "ganglie": ("Eye for an Eye", "刚烈"), "tuxi": ("Sudden Strike", "突袭"),
    "luoyi": ("Bare-Chested", "裸衣"), "tiandu": ("Envy of Heaven", "天妒"),
    "yiji": ("Bequeathed Strategy", "遗计"), "luoshen": ("Goddess Luo", "洛神"),
    "qingguo": ("Beauty", "倾国"), "rende": ("Benevolence", "仁德"), "jijiang": ("Rouse", "激将"),
    "wusheng": ("Warrior Saint", "武圣"), "paoxiao": ("Roar", "咆哮"),
    "guanxing": ("Stargazing", "观星"), "kongcheng": ("Empty City", "空城"),
    "longdan": ("Dragon Heart", "龙胆"), "mashu": ("Horsemanship", "马术"),
    "tieqi": ("Iron Cavalry", "铁骑"), "jizhi": ("Wisdom", "集智"), "qicai": ("Genius", "奇才"),
    "zhiheng": ("Balance of Power", "制衡"), "jiuyuan": ("Rescue", "救援"),
    "qixi": ("Surprise Raid", "奇袭"), "keji": ("Self-Mastery", "克己"),
    "kurou": ("Self-Injury", "苦肉"), "yingzi": ("Handsome", "英姿"),
    "fanjian": ("Sow Dissension", "反间"), "guose": ("National Beauty", "国色"),
    "liuli": ("Deflection", "流离"), "qianxun": ("Humility", "谦逊"),
    "lianying": ("Linked Camps", "连营"), "xiaoji": ("Warrior Lady", "枭姬"),
    "jieyin": ("Marriage", "结姻"), "qingnang": ("Green Satchel", "青囊"),
    "jijiu": ("First Aid", "急救"), "wushuang": ("Peerless", "无双"),
    "lijian": ("Sow Discord", "离间"), "biyue": ("Eclipse the Moon", "闭月"),
    # weapon / armor abilities that open asks
    "eight_diagram": ("Eight Trigrams", "八卦阵"), "blade": ("Green Dragon Blade", "青龙偃月刀"),
    "axe": ("Stone Cleaving Axe", "贯石斧"), "ice_sword": ("Ice Sword", "寒冰剑"),
    "kylin_bow": ("Kirin Bow", "麒麟弓"), "double_swords": ("Yin-Yang Swords", "雌雄双股剑"),
    "halberd": ("Sky Piercing Halberd", "方天画戟"), "spear": ("Serpent Spear", "丈八蛇矛"),
}

IDENTITY_NAMES = {"lord": ("Lord", "主公"), "loyalist": ("Loyalist", "忠臣"),
                  "rebel": ("Rebel", "反贼"), "renegade": ("Renegade", "内奸")}

# players -> (lord, loyalist, rebel, renegade), §2.2
IDENTITY_TABLE = {2: (1, 0, 1, 0), 3: (1, 0, 1, 1), 4: (1, 1, 1, 1), 5: (1, 1, 2, 1),
                  6: (1, 1, 3, 1), 7: (1, 2, 3, 1), 8: (1, 2, 4, 1), 9: (1, 3, 4, 1),
                  10: (1, 3, 4, 2)}
IDENTITY_VARIANTS = {"printed": {}, "double_renegade": {6: (1, 1, 2, 2), 8: (1, 2, 3, 2)},
                     "single_renegade_10": {10: (1, 3, 5, 1)}}


def identity_counts(players: int, variant: str = "printed") -> tuple[int, int, int, int]:
    """(lord, loyalist, rebel, renegade) for a player count and identity variant (§2.2)."""
    return IDENTITY_VARIANTS[variant].get(players, IDENTITY_TABLE[players])
