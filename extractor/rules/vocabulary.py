"""The scenario vocabulary (``../shared/rules/SCENARIOS.md`` section 3): languages, frames,
locations, positions, action kinds, the ``by`` values of a Special Summon, the negating cards, the
reason codes of a verdict, and the keys a scenario may hold."""
# --- vocabulary (SCENARIOS.md section 3) ----------------------------------------------------------
LANGS = ("en", "zh-Hans", "zh-Hant")
FRAMES = ("normal", "effect", "ritual", "fusion", "synchro", "xyz", "link", "pendulum")
EXTRA_FRAMES = ("fusion", "synchro", "xyz", "link")
LOCATIONS = ("hand", "deck", "gy", "banished", "extra", "field")
POSITIONS = ("face-up-attack", "face-up-defense", "face-down-defense")
ACTION_POSITIONS = ("face-up-attack", "face-up-defense")
KINDS = ("normal-summon", "normal-set", "tribute-summon", "tribute-set", "flip-summon",
         "gemini-summon", "special-summon", "negate-summon")
NS_FAMILY = ("normal-summon", "normal-set", "tribute-summon", "tribute-set")
SUMMON_KINDS = ("normal-summon", "tribute-summon")
SET_KINDS = ("normal-set", "tribute-set")
SS_BY = ("own-procedure", "effect", "fusion-summon", "ritual-summon", "synchro-summon",
         "xyz-summon", "link-summon")
NEGATORS = ("Solemn Warning", "Solemn Judgment", "Black Horn of Heaven", "Divine Wrath",
            "Thunder King Rai-Oh")
SUMMONS = ("builtin-special-summon", "effect-special-summon-by-spell-trap",
           "effect-special-summon-by-monster-effect", "normal-summon")
REASONS = ("not-applicable", "cannot-normal-summon", "cannot-normal-set", "needs-tributes",
           "wrong-tribute-count", "not-enough-monsters", "position-not-allowed",
           "normal-summon-limit-reached", "flip-too-soon", "position-already-changed",
           "cannot-special-summon", "cannot-special-summon-from-location", "condition-forbids-method",
           "not-summoned-correctly", "condition-not-met", "materials-not-allowed")
#: seed 000: "The only exceptions to this rule are "Advanced Ritual Art", "Contract with the Abyss"
#: and "Earth Chant", which may be used in place of the correct Ritual Spell Card"
RITUAL_EXCEPTIONS = ("Advanced Ritual Art", "Contract with the Abyss", "Earth Chant")
#: the Extra Deck Summon each ``by`` stands for, and the frame it needs
EXTRA_SUMMON_BY = {"fusion-summon": "fusion", "synchro-summon": "synchro", "xyz-summon": "xyz",
                   "link-summon": "link"}

TOP_KEYS = {"id", "source", "note", "card", "state", "action", "expect"}
CARD_KEYS = {"name", "lang", "text", "frame", "level", "gemini"}
STATE_KEYS = {"location", "position", "summoned_correctly", "returned_to_deck_since", "set_this_turn",
              "position_changed_this_turn", "gemini_summoned", "normal_summons_used", "summon_effects",
              "additional_used", "monsters_to_tribute", "text_requirements_met"}

