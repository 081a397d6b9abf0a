"""fuda's own words in the two languages of the rules' texts (0 English, 1 日本語): what the play
screen, the logs and replays say around the rules' own lines, so that a table playing in Japanese
reads Japanese throughout. Only what players read is here; diagnostics stay in English."""

from __future__ import annotations

WORDS: dict[str, tuple[str, str]] = {
    # events (engine/observe.py)
    "a_card": ("a card", "伏せたカード"),
    "n_cards": ("{n} cards", "{n}枚"),
    "and_n_cards": ("{cs} and {n} more", "{cs} ほか{n}枚"),
    "has_chosen": ("{p} has chosen", "{p} が選んだ"),
    "pass": ("{p}: pass", "{p}: パス"),
    "shuffle": ("shuffle {z}", "{z} をシャッフル"),
    "bottom": (" (bottom)", " (一番下へ)"),
    "inserted": ("{z} at the {side} of {seq}", "{z} を {seq} の{side}に"),
    "front": ("front", "先頭"),
    "back": ("back", "最後尾"),
    "new_zone": ("a new zone", "新しい場"),
    "closes_up": ("an empty zone of {seq} closes up", "{seq} の空いた場が詰められる"),
    "seq_facing": ("{z}: P{far} above, P{near} below, front lines facing",
                   "{z}: 上が P{far}、下が P{near}、先頭の列が向かい合う"),
    "seq_front": ("front", "先頭"),
    "seq_front_first": ("{z}: front first", "{z}: 先頭から"),
    "seq_empty": (" (empty)", " (空)"),
    "turn": ("turn: {p}", "手番: {p}"),
    "phase": ("phase: {x}", "フェーズ: {x}"),
    "activate": ("activate #{i} {e} by {p}", "#{i} {e} を {p} が発動"),
    "activate_from": (" from {c}", " ({c})"),
    "resolve": ("resolve #{i}", "#{i} を解決"),
    "negate": ("negate #{i}", "#{i} を無効化"),
    "fizzle": ("#{i} is negated: no effect", "#{i} は無効: 効果なし"),
    "finish": ("{p} is out (place {n})", "{p} 抜け: {n}位 確定"),
    "rejoin": ("{p} is back in play", "{p} がゲームに戻る"),
    "sit_out": ("{p} sits out", "{p} は休み"),
    "winner": ("winner: {ps}", "勝者: {ps}"),
    "nobody_wins": ("nobody wins", "勝者なし"),
    "draw_too": ("; draw: {ps}", "; 引き分け: {ps}"),
    "loses": ("{p} loses", "{p} の負け"),
    "game_over": ("game over", "ゲーム終了"),
    "as_draw": (" (draw)", " (引き分け)"),
    "told": ("(to {p}) ", "({p} へ) "),
    "reveal": ("reveal {c} to {to}", "{c} を{to}に公開"),
    "everyone": ("everyone", "全員"),
    "revealed": ("revealed: {v}", "公開: {v}"),
    "hide": ("{c} turned face down", "{c} を伏せる"),
    "hide_seen": ("{c} out of sight again", "{c} はもう見えない"),
    "swap": ("swap {a} and {b}", "{a} と {b} を交換"),
    "hidden_again": ("hidden again: {v}", "再び非公開: {v}"),
    "cap": ("decision limit reached ({n}): the game ends as a draw", "決定数の上限 ({n}) に達したので引き分けで終了"),
    "reversed": ("turn order reversed", "手番の順が逆になった"),
    # the play screen (runner/render.py)
    "head_phase": ("phase {x}", "フェーズ {x}"),
    "head_turn": ("turn {p}", "手番 {p}"),
    "to_decide": ("{ps} to decide", "{ps} が選択中"),
    "you_are": ("you are {p}", "あなたは {p}"),
    "you": (" (you)", " (あなた)"),
    "out_place": (" out #{n}", " 抜け{n}位"),
    "sitting_out": (" sits out", " 休み"),
    "score": (" score {s}", " {s}点"),
    "seats": ("seats: ", "席: "),
    "cards": ("{n} cards", "{n}枚"),
    "one_card": ("1 card", "1枚"),
    "top": ("◀ top", "◀ 一番上"),
    "stack": ("stack (top last): ", "スタック (最後が一番上): "),
    "stack_by": (" by {p}", " ({p})"),
    "negated": (" NEGATED", " 無効"),
    "recent": ("recent:", "最近の出来事:"),
    "chosen": ("already chosen: ", "選択済み: "),
    "result": ("result: ", "結果: "),
    "result_one": ("{p} {o} (place {n}{s})", "{p} {o} ({n}位{s})"),
    "result_score": (", score {s}", ", {s}点"),
    "win": ("win", "勝ち"),
    "lose": ("lose", "負け"),
    "draw": ("draw", "引き分け"),
    "true": ("true", "はい"),
    "false": ("false", "いいえ"),
    # fuda play (runner/play.py)
    "table": ("{title} — {n} players, seed {seed}: ", "{title} — {n}人, シード {seed}: "),
    "only_choice": ("{p}: your only choice: {a}", "{p}: 選べるのは {a} だけ"),
    "hot_seat": ("— {p} to play: pass the keyboard to {p}, then press Enter —",
                 "— {p} の番: キーボードを {p} に渡して Enter —"),
    "help": ("type a number or an action (e.g. '{ex}'; cards also as ASCII: H7 for ♥7, SA for ♠A); "
             "'list' shows the choices again; 'log' shows the game log; 'undo' takes back your last choice; "
             "'save FILE' writes a replayable log; 'quit' stops",
             "番号か行動を入力 (例: '{ex}'; カードは ASCII でも: ♥7 は H7, ♠A は SA); 'list' で選択肢をもう一度; "
             "'log' で記録; 'undo' で自分の直前の選択を取り消し; 'save ファイル' で再生できる記録を保存; 'quit' で中断"),
    "undone": ("took back {n} move(s): your last choice and what followed", "{n} 手戻しました (直前の選択から)"),
    "no_undo": ("nothing to undo: you have not chosen anything yet", "戻せる選択がありません"),
    "undo_other": ("cannot undo: {q} has chosen since", "戻せません: その後 {q} が選択しました"),
    "save_needs": ("save needs a file name: save FILE (e.g. save game.json)",
                   "保存にはファイル名が要ります: save ファイル (例: save game.json)"),
    "bad_number": ("refused: choose a number from 1 to {n}", "できません: 1 から {n} の番号を選んでください"),
    "not_legal": ("refused: {a} is not legal now. Choose one of:", "できません: {a} は今は選べません。次から選んでください:"),
    "none_legal_why": ("  (no {a} is legal now: {why})", "  ({a} は今は選べません: {why})"),
    "none_legal": ("  (no {a} is legal now: the rules' conditions for it do not hold)",
                   "  ({a} は今は選べません: ルールの条件を満たしていません)"),
    "no_such_option": ("  (this decision has no {a}: its choices are {names})",
                       "  (この選択に {a} はありません: 選べるのは {names})"),
    "not_legal_long": ("refused: {a} is not legal now; type a number from 1 to {n}, an action, or 'list' to see "
                       "the choices again",
                       "できません: {a} は今は選べません。1 から {n} の番号か行動を入力してください ('list' で選択肢)"),
    "saved": ("saved {n} action(s) to {path} (fuda replay {path})", "{n} 手を {path} に保存 (fuda replay {path})"),
    "cannot_save": ("cannot save to {path}: {why}", "{path} に保存できません: {why}"),
    "resumed": ("resumed after {n} actions", "{n} 手の後から再開"),
    "slow_bot": ("(a bot took {s} s for that move: its random rollouts play this ruleset to the end. Declare "
                 "`evaluate … after N decisions` to cut them short (docs/bots.md), or seat a faster bot, e.g. "
                 "--seat ismcts:1s)",
                 "(ボットがこの手に {s} 秒かかりました: ランダムな試行をゲームの終わりまで指しています。"
                 "`evaluate … after N decisions` で打ち切れます (docs/bots.md)。速いボットは --seat ismcts:1s など)"),
    "run_step": (" in steps of {n}", " ({n}刻み)"),
    "stopped": ("game stopped.", "ゲームを中断しました。"),
    "continue": ("continue it with: fuda play --resume {path}", "続きは: fuda play --resume {path}"),
}


def say(key: str, lang: int = 0, **values: object) -> str:
    """The words for ``key`` in ``lang``, with ``values`` filled in."""
    return WORDS[key][1 if lang else 0].format(**values)
