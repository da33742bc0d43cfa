"""The five seed posts' words: what a scenario naming one of them (``game``) may say.

Copied from the shared vocabulary (``shared/night/schema.json``, the ``player_*`` and ``state_*``
definitions): for a game outside the five the names come from its own ruleset instead
(:func:`tracker.engine.night.scenario.check_names`). The scenario model
(:mod:`tracker.engine.night.scenario_model`) checks a player and the state against these, and its
JSON Schema states them as one ``if game … then`` per post.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args


@dataclass(frozen=True, slots=True)
class SeedWords:
    """One rule post's closed vocabulary."""

    key: str  #: the ``$defs`` suffix in the schema (``player_107``, ``state_107``)
    required: tuple[str, ...]  #: player fields every player of this post must have
    fields: tuple[str, ...]  #: the player fields this post's scenarios may hold
    roles: tuple[str, ...]
    factions: tuple[str, ...]
    tags: tuple[str, ...]
    statuses: tuple[str, ...]
    uses: tuple[str, ...]
    state_keys: tuple[str, ...]


_BASE = ("name", "role", "faction", "tags", "uses", "status", "note", "出局")

DNF107Role = Literal["村长", "神启者", "民兵", "村民", "剑士", "游荡者", "慰魂师", "贵族", "学者", "恶徒", "告死者", "恶灵",
                 "活尸", "血族", "腐尸", "天谴者", "夜行怪", "守夜人"]
M160Role = Literal["护士长", "心理学家", "阴谋论者", "化梦师", "药师", "安保人员", "末日传道士", "通灵师", "模仿者", "说谎者",
              "懦夫", "冰恋者", "审讯官", "无政府主义者", "虚无主义者", "漫步者", "丑角", "煤气灯人", "告死天使",
              "告死邪魔", "幕后黑手", "缚魂灵", "附魂灵", "狂煞", "厉鬼", "双生暗影"]
M65Role = Literal["黑王", "银鸦", "青铃", "骑士", "风行", "劫火", "白王", "红王", "蓝王", "绿王", "黄王", "紫王", "预知者",
             "掠夺者"]
#: Every faction of the five posts (判负阵营 and 红牌 of a scenario naming no post).
Faction = Literal["莱恩", "圣殿", "环蛇", "亡灵", "中立", "狼人", "村民", "黑情侣", "善良", "邪恶", "黑暗星云", "六色联军",
                  "加速研究社"]
DNF_107_ROLES: tuple[str, ...] = get_args(DNF107Role)
M160_ROLES: tuple[str, ...] = get_args(M160Role)
M65_ROLES: tuple[str, ...] = get_args(M65Role)
ALL_FACTIONS: tuple[str, ...] = get_args(Faction)

#: By the rule post's file name in shared/rules/, in the schema's order.
SEED_WORDS: dict[str, SeedWords] = {
    "000_4699463e7e8ec455.txt": SeedWords(
        key="107", required=("alive",), fields=(*_BASE, "alive", "原身份"), roles=DNF_107_ROLES,
        factions=("莱恩", "圣殿", "环蛇", "亡灵", "中立"), tags=("神眷者", "恶徒首领", "亡灵圣物"), statuses=("挂机",),
        uses=("突击", "圣光天启", "潜行", "超度", "诈骗", "拓印", "偷袭", "死灵咒", "初拥", "暗日", "长寿", "夜之隐", "防反"),
        state_keys=("判负阵营", "存活", "神眷者", "恶徒首领", "告死者", "亡灵圣物", "祝福上次", "恩典首次", "教化上次",
                    "牵制上次", "蓄力斩上次", "长寿上次")),
    "001_a3a63ea6957c226f.txt": SeedWords(
        key="213", required=("alive",), fields=(*_BASE, "alive", "elevator", "已翻牌", "伪装", "伪装未选"),
        roles=("狼人", "觉醒狼王", "恶魔", "石像鬼", "隐狼", "预言家", "通灵师", "女巫", "守卫", "骑士", "长老", "赏金猎人",
               "猎人", "村民", "中箭勇者"),
        factions=("狼人", "村民"), tags=("群内", "接刀", "警长", "牧首"), statuses=("守护(长寿之命)", "净化"),
        uses=("救药", "毒药", "报复", "灵通"),
        state_keys=("判负阵营", "存活", "警长", "牧首", "红牌", "守护上次", "悬赏上次")),
    "002_558fa90179aecb96.txt": SeedWords(
        key="M19", required=("alive",), fields=(*_BASE, "alive", "英雄", "设计目标"),
        roles=("预言家", "女巫", "医生", "人质", "村民", "公狼", "老狼", "幼狼", "绑匪", "变异丘比特"),
        factions=("狼人", "村民", "黑情侣"), tags=("狼群", "警长", "情侣:攻", "情侣:受", "情侣:主人", "情侣:忠犬"),
        statuses=("绑架", "失去所有技能"), uses=("救药", "毒药", "灭口", "绑架", "算计", "通灵", "警觉", "设计", "遇难", "遗志"),
        state_keys=("判负阵营", "存活", "警长", "情侣", "空救", "激励", "殉情夜", "红牌")),
    "003_7c6681f418104c25.txt": SeedWords(
        key="M160", required=("state", "type", "seat"), fields=(*_BASE, "state", "type", "seat", "believes", "死亡"),
        roles=M160_ROLES, factions=("善良", "邪恶"), tags=("群内",), statuses=("挂机", "丑角", "中毒"),
        uses=("夺刀", "毒害", "狂乱"),
        state_keys=("判负阵营", "存活", "座次环形", "迷失", "丑角", "初始邪恶人数", "死亡未出局", "药剂历史", "面具上次",
                    "毒害上次")),
    "004_757e71c89bc341d0.txt": SeedWords(
        key="M65", required=("alive",), fields=(*_BASE, "alive", "choice", "掠夺成功"), roles=M65_ROLES,
        factions=("黑暗星云", "六色联军", "加速研究社"), tags=(), statuses=(),
        uses=("绝对切割", "缥缈永恒", "机械制造", "票权掠夺", "空之瞭望", "净化之焰", "辐射炫惑", "天枢剑圣", "天璇紫后",
              "最后一枪", "绝对防御"),
        state_keys=("判负阵营", "存活", "深青之桩已选择", "天枢剑圣已选择", "技能掠夺上次", "时间回溯上次", "天璇紫后上次",
                    "机械制造上次", "飞行头槌上次", "枯竭生效")),
}
