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
    "first_answer": ("{p} answers first: {x}", "{p} が最初に応答: {x}"),
    "pass": ("{p}: pass", "{p}: パス"),
    "shuffle": ("shuffle {z}", "{z} をシャッフル"),
    "bottom": (" (bottom)", " (一番下へ)"),
    "to_top": (" (to the top)", " (一番上へ)"),
    "inserted": ("{z} at the {side} of {seq}", "{z} を {seq} の{side}に"),
    "inserted_beside": ("{z} {side} {at}", "{z} を {at} の{side}に"),
    "after": ("after", "後ろ"),
    "before": ("before", "前"),
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
    "cap": ("decision limit reached ({n}): the game ends, a draw for the players still in it",
            "決定数の上限 ({n}) に達したので終了: 残っている全員が引き分け"),
    "cap_lose": ("decision limit reached ({n}): the game ends, lost for the players still in it",
                 "決定数の上限 ({n}) に達したので終了: 残っている全員の負け"),
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
    "table": ("{title} — {n} player{s}, seed {seed}: ", "{title} — {n}人, シード {seed}: "),
    "table_hot": ("{title} — {n} player{s}, seed told when the game is over (it deals every hand): ",
                  "{title} — {n}人, シードは終局後に (配られた札が全部分かるため): "),
    "seed_was": ("seed {seed}", "シード {seed}"),
    "undo_over": ("the game is over and its seed, which dealt every hand, has been told: start a new game",
                  "終局してシード (配られた札のすべて) が明かされたので戻せません: 新しいゲームを"),
    "only_choice": ("{p}: your only choice: {a}", "{p}: 選べるのは {a} だけ"),
    "pause": ("— {phase} next: press Enter to go on —", "— 次は {phase}: Enter で続行 —"),
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
    "number_both": ("{n} is line {n} ({line}) and also {a}: type #{n} for the line, or '{a}'",
                    "{n} は {n} 番 ({line}) とも {a} とも読めます: 番号なら #{n}、行動なら '{a}' と入力してください"),
    "needs_values": ("  ({a} needs its values: {ex})", "  ({a} には値も書きます: {ex})"),
    "not_legal": ("refused: {a} is not legal now. Choose one of:", "できません: {a} は今は選べません。次から選んでください:"),
    "none_legal_why": ("  (no {a} is legal now: {why})", "  ({a} は今は選べません: {why})"),
    "many_choices": ("{a} …: {n} choices — type {a} and its values, as {ex}", "{a} …: {n} 通り — {a} と値を入力 (例 {ex})"),
    "this_not_legal_why": ("  ({a} is not among the legal actions; {o}: {why})", "  ({a} は選べません。{o}: {why})"),
    "takes_nothing": ("  ({o} takes no values: {ex})", "  ({o} に値はありません: {ex})"),
    "takes_one_card": ("  ({o} takes one card: {ex})", "  ({o} で選ぶカードは 1 枚です: {ex})"),
    "takes_cards": ("  ({o} takes {n} cards: {ex})", "  ({o} で選ぶカードは {n} 枚です: {ex})"),
    "takes_one_value": ("  ({o} takes one value: {ex})", "  ({o} の値は 1 つです: {ex})"),
    "takes_values": ("  ({o} takes {n} values: {ex})", "  ({o} の値は {n} つです: {ex})"),
    "value_not_in": ("  ({o}: {w} is not in {lo}..{hi})", "  ({o}: {w} は {lo}..{hi} の範囲にありません)"),
    "value_not_among": ("  ({o}: {w} is not one of its values now: {vs})", "  ({o}: {w} は今選べる値ではありません: {vs})"),
    "no_such_card": ("  ({o}: you see no card {w})", "  ({o}: {w} というカードは見えません)"),
    "card_meant": ("  ({o}: no card is named {w}: did you mean {cards}?)", "  ({o}: {w} という名のカードはありません: {cards} ですか?)"),
    "card_labelled": ("  ({o}: no card is named {w} ({cards}); its choices now: {vs})",
                      "  ({o}: {w} という名のカードはありません ({cards})。今選べるのは {vs})"),
    "card_is": ("{label} is {name}", "{label} は {name}"),
    "or": (" or ", " か "),
    "card_elsewhere": ("  ({o}: {w} is in {z}, not among the cards it takes)", "  ({o}: {w} は {z} にあり、選べるカードではありません)"),
    "none_legal": ("  (no {a} is legal now: the rules' conditions for it do not hold)",
                   "  ({a} は今は選べません: ルールの条件を満たしていません)"),
    "no_such_option": ("  (this decision has no {a}: its choices are {names})",
                       "  (この選択に {a} はありません: 選べるのは {names})"),
    "not_legal_long": ("refused: {a} is not legal now; type a number from 1 to {n}, an action, or 'list' to see "
                       "the choices again",
                       "できません: {a} は今は選べません。1 から {n} の番号か行動を入力してください ('list' で選択肢)"),
    "saved": ("saved {n} action(s) to {path} (fuda replay {path})", "{n} 手を {path} に保存 (fuda replay {path})"),
    "saved_hot": ("saved {n} action(s) to {path} (it holds the seed that deals every hand: fuda replay --spectator "
                  "{path} shows only what the table saw)",
                  "{n} 手を {path} に保存 (全員の札を決めるシードを含みます: fuda replay --spectator {path} "
                  "なら卓に見えたものだけ)"),
    "save_over": ("not saved: {path} already holds something (a saved game?), which saving would write over; "
                  "name another file",
                  "保存しませんでした: {path} には既に何か (保存したゲーム?) があり、上書きになります。別のファイル名にしてください"),
    "cannot_save": ("cannot save to {path}: {why}", "{path} に保存できません: {why}"),
    "resumed": ("resumed after {n} actions", "{n} 手の後から再開"),
    "slow_bot": ("(a bot took {s} s for that move: its random rollouts play this ruleset to the end. Declare "
                 "`evaluate … after N decisions` to cut them short (docs/bots.md in the fuda source), or seat a faster bot, e.g. "
                 "--seat ismcts:1s)",
                 "(ボットがこの手に {s} 秒かかりました: ランダムな試行をゲームの終わりまで指しています。"
                 "`evaluate … after N decisions` で打ち切れます (fuda のソースの docs/bots.md)。速いボットは --seat ismcts:1s など)"),
    "run_step": (" in steps of {n}", " ({n}刻み)"),
    "stopped": ("game stopped.", "ゲームを中断しました。"),
    "continue": ("continue it with: fuda play --resume {path}", "続きは: fuda play --resume {path}"),
}


def n_players(n: int) -> str:
    """"1 player", "4 players"."""
    return f"{n} player{'s' if n != 1 else ''}"


def say(key: str, lang: int = 0, **values: object) -> str:
    """The words for ``key`` in ``lang``, with ``values`` filled in."""
    return WORDS[key][1 if lang else 0].format(**values)


_FULL_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def typed_number(text: str) -> int | None:
    """A whole number as a player types it: ASCII digits, or the full-width ones a Japanese keyboard
    gives (１２). Not ①, ² or another script's digits: str.isdigit takes them, and int() refuses
    some (a traceback) and reads others as a number no player of the game's two languages meant."""
    t = text.translate(_FULL_WIDTH_DIGITS)
    return int(t) if t.isascii() and t.isdigit() else None


def typed_seat(text: str) -> int | None:
    """A seat as a player types it: P2, p2 or 2, the P and the digits also full width (Ｐ２)."""
    return typed_number(text[1:] if text[:1] in "PpＰｐ" else text)


def ascii_digits(word: str) -> str:
    """A value typed in full-width digits (１８, -１８) written in ASCII ones, as an action's id has
    it; any other word as it is."""
    if word.isascii() or typed_number(word.removeprefix("-")) is None:
        return word
    return word.translate(_FULL_WIDTH_DIGITS)
