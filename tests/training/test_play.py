"""Playing against bots: the game session, replays, board views and the terminal front end.

Small games throughout: the human takes the first legal action, the bots are random or heuristic.
"""

from __future__ import annotations

import io
import json
from itertools import chain, repeat

import numpy as np
import pytest
from rich.console import Console

import envs
from envs.core.game import IllegalActionError
from training.playing import boards
from training.playing import terminal as play
from training.playing.replay import FORMAT_VERSION, ReplayError, load_replay, save_replay, validate_replay
from training.playing.session import (
    NotYourTurnError,
    Session,
    StaleActionError,
    default_bot,
    game_name,
    kind_label,
    shipped_checkpoint,
)

ENV_IDS = list(envs.ENV_IDS)


def small_players(env_id: str) -> int:
    """The smallest table with at least two seats (a human and a bot)."""
    return max(2, envs.game_class(env_id).min_players)


def _same_json(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def play_out(session: Session) -> Session:
    """The human(s) always take the first legal action, to the end."""
    while not session.is_over():
        view = session.view(session.human_to_act)
        session.play(view["legal"][0]["id"], step=view["step"])
    return session


# -- the session ------------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_seed_and_actions_give_the_same_game(env_id):
    """Chance comes from the seed: the same seed and actions give the same state (to_json)."""
    n = small_players(env_id)
    game = envs.game_class(env_id)(num_players=n)
    state = game.new_state(11)
    bot = envs.heuristic_bot(env_id, seed=0)
    actions = []
    while not state.is_over():
        actions.append(int(bot.act_state(state)))
        state.apply(actions[-1])
    again = game.new_state(11)
    for a in actions:
        again.apply(a)
    assert _same_json(state.to_json(), again.to_json())


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_session_plays_to_the_end_with_outcome(env_id):
    n = small_players(env_id)
    session = play_out(Session.new(env_id, n, {0: "human", 1: "random"}, seed=3))
    result = session.result(0)
    outcome = session.state.outcome()
    assert result["winners"] == list(outcome.winners) and result["reason"] == outcome.reason
    if session.game.cooperative:
        assert result["verdict"] in ("the team won", "the team lost")
        assert result["team_won"] == outcome.team_won
    else:
        assert result["verdict"] in ("you won", "you lost", "you share the victory", "no winner")
    assert session.step == len(session.actions) == len(session.log)
    assert {e.seat for e in session.log} <= set(range(n))
    view = session.view(0)
    assert view["over"] and view["legal"] == [] and view["result"] == result
    json.dumps(view)  # JSON-able


def test_legal_actions_are_numbered_described_and_grouped():
    session = Session.new("last_heroes_v0", 2, ["human", "random"], seed=1)
    legal = session.legal_actions()
    layout = session.game.action_layout
    assert [a.id for a in legal] == session.state.legal_actions()
    for a in legal:
        assert a.text == session.state.describe_action(a.id)
        assert a.kind == layout.name_of(a.id) and a.kind_label == kind_label(a.kind)
    numbers = [n for _, group in session.grouped_actions() for n, _ in group]
    assert sorted(numbers) == list(range(1, len(legal) + 1))
    assert kind_label("PLAY_AMMO") == "Play ammo"


def test_bad_actions_are_refused_and_the_game_goes_on():
    session = Session.new("last_heroes_v0", 2, ["human", "random"], seed=1)
    step = session.step
    illegal = next(a for a in range(session.game.num_actions) if not session.state.legal_mask()[a])
    with pytest.raises(IllegalActionError, match="Legal actions"):
        session.play(illegal, step=step)
    for bad in (-1, 10_000, "abc", None, True, 1.5):
        with pytest.raises(IllegalActionError):
            session.play(bad, step=step)
    with pytest.raises(StaleActionError, match="stale"):
        session.play(session.legal_actions()[0].id, step=step + 1)
    with pytest.raises(NotYourTurnError):
        session.play(session.legal_actions()[0].id, step=step, seat=1)
    assert session.step == step  # nothing applied
    session.play(str(session.legal_actions()[0].id), step=step)  # digits as a string are an id
    assert session.step > step


def test_seat_specs_are_checked_and_default_to_the_shipped_bot(tmp_path):
    with pytest.raises(ValueError, match="unknown env id"):
        Session.new("nope_v0", 2)
    with pytest.raises(ValueError, match="played by 2 to 5"):
        Session.new("last_heroes_v0", 9)
    with pytest.raises(ValueError, match="neither one of"):
        Session.new("last_heroes_v0", 2, {1: str(tmp_path / "missing.json")})
    with pytest.raises(ValueError, match="not a seat"):
        Session.new("last_heroes_v0", 2, {5: "human"})
    session = Session.new("last_bastion_v0", 2, {0: "human"}, seed=0, advance=False)
    assert session.seats == ["human", "shipped"]
    assert game_name("last_heroes_v0") == "last_heroes"
    if shipped_checkpoint("last_heroes_v0") is not None:
        assert default_bot("last_heroes_v0").endswith("last_heroes.json")
    if shipped_checkpoint("last_bastion_v0") is None:
        assert default_bot("last_bastion_v0") == "heuristic"


def test_two_people_share_the_screen_beside_a_bot():
    session = play_out(Session.new("heroes_and_monsters_v0", 3, ["human", "heuristic", "human"], seed=1))
    assert session.humans == [0, 2]
    movers = {e.seat for e in session.log if e.human}
    assert movers == {0, 2} and all(not e.human for e in session.log if e.seat == 1)
    assert session.result(0)["verdict"] == session.result(2)["verdict"]  # one team


def test_hints_say_what_their_probability_means():
    session = Session.new("last_heroes_v0", 2, ["human", "random"], seed=4)
    legal = {a.id for a in session.legal_actions()}
    h = session.hint("random")
    assert h.action in legal and h.probability == pytest.approx(1 / len(legal)) and "uniform" in h.how
    h = session.hint("heuristic")
    assert h.action in legal and h.probability == 1.0 and "rule-based" in h.how
    if shipped_checkpoint("last_heroes_v0") is not None:
        h = session.hint("shipped")
        assert h.action in legal and 0 < h.probability <= 1 and "probability" in h.how
        assert h.policy == "last_heroes"
    assert session.step == 0 or session.human_to_act == 0  # a hint plays nothing


def test_a_checkpoint_bot_plays_a_seat():
    if shipped_checkpoint("last_heroes_v0") is None:
        pytest.skip("no shipped Last Heroes checkpoint in this tree")
    session = play_out(Session.new("last_heroes_v0", 2, {0: "human", 1: "shipped"}, seed=5))
    assert session.is_over() and any(e.seat == 1 for e in session.log)


def test_a_secret_draft_pick_is_not_told_to_the_others():
    session = Session.new("lost_legends_v0", 3, ["human", "random", "random"], seed=2)
    play_out(session)
    picks = [e for e in session.log if e.kind == "PICK" and e.seat != 0]
    assert picks
    for e in picks:
        told = e.for_seat(0)
        assert told["text"] == "picks a card (face down)" and told["action"] is None
        assert e.for_seat(e.seat)["text"] == e.text != told["text"]


# -- hidden information ----------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_seat_view_does_not_depend_on_what_it_cannot_see(env_id):
    """resample_hidden(seat) redeals what ``seat`` cannot see; its board, text and legal actions stay."""
    game_cls = envs.game_class(env_id)
    rng = np.random.default_rng(0)
    for n in sorted({small_players(env_id), game_cls.max_players}):
        state = game_cls(num_players=n).new_state(21)
        bot = envs.heuristic_bot(env_id, seed=0)
        checked = redealt = 0
        k = 0
        while not state.is_over():
            if k % 4 == 0:
                for seat in range(n):
                    other = state.resample_hidden(seat, rng)
                    assert boards.board_view(env_id, other, seat) == boards.board_view(env_id, state, seat)
                    assert other.render(seat) == state.render(seat)
                    if seat == state.current_player:
                        mine = [(a, state.describe_action(a)) for a in state.legal_actions()]
                        assert [(a, other.describe_action(a)) for a in other.legal_actions()] == mine
                    checked += 1
                    redealt += not _same_json(
                        other.to_json() | {"chance": 0, "rng": 0}, state.to_json() | {"chance": 0, "rng": 0}
                    )
            state.apply(int(bot.act_state(state)))
            k += 1
        assert checked > 0
        if not game_cls.perfect_information:
            assert redealt > 0, "resample_hidden never changed anything: the check would prove nothing"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_has_a_drawn_board_with_clickable_items(env_id):
    session = Session.new(env_id, small_players(env_id), {0: "human", 1: "random"}, seed=8)
    keyed = 0
    kinds = set()
    while not session.is_over() and session.step < 400:
        view = session.view(0)
        board = view["board"]
        assert board["generic"] is False and board["sections"]
        keys = {it.get("key") for sec in board["sections"] for it in sec["items"]}
        kinds |= {it["type"] for sec in board["sections"] for it in sec["items"]}
        for a in view["legal"]:
            assert set(a["keys"]) <= keys, (a, sorted(k for k in keys if k))
            keyed += bool(a["keys"])
        session.play(view["legal"][0]["id"], step=view["step"])
    assert keyed > 0
    assert {"card", "token"} <= kinds or {"monster", "token"} <= kinds


def test_a_game_without_a_board_module_shows_its_text():
    state = envs.game_class("last_heroes_v0")(num_players=2).new_state(0)
    view = boards.generic_board(state, 0)
    assert view["generic"] and view["sections"][0]["items"]


# -- replays ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_replay_file_round_trip(env_id, tmp_path):
    n = small_players(env_id)
    session = play_out(Session.new(env_id, n, {0: "human", 1: "heuristic"}, seed=13))
    path = save_replay(tmp_path / "game.json", session.replay())
    data = load_replay(path)
    assert data["format_version"] == FORMAT_VERSION and data["actions"] == session.actions
    assert data["env_id"] == env_id and data["num_players"] == n and data["seed"] == 13
    assert data["outcome"]["winners"] == list(session.state.outcome().winners)
    again = Session.from_replay(data)
    assert _same_json(again.state.to_json(), session.state.to_json())
    # Resume half way, then play the same actions on: the same game.
    half = len(data["actions"]) // 2
    resumed = Session.from_replay(data, upto=half, advance=False)
    assert resumed.step == half
    for a in data["actions"][half:]:
        resumed._apply(int(resumed.state.current_player), a, human=False)
    assert _same_json(resumed.state.to_json(), session.state.to_json())


def test_damaged_or_mismatched_replays_are_clear_errors(tmp_path):
    session = play_out(Session.new("last_heroes_v0", 2, ["human", "random"], seed=1))
    good = session.replay()
    bad_cases = {
        "format": ({**good, "format": "other"}, "format"),
        "version": ({**good, "format_version": 99}, "format_version 99"),
        "env": ({**good, "env_id": "chess_v0"}, "unknown env id"),
        "players": ({**good, "num_players": 9}, "num_players 9"),
        "seats": ({**good, "seats": ["human"]}, "seats must be a list of 2"),
        "action id": ({**good, "actions": good["actions"][:3] + [999]}, "action #4 is 999"),
        "missing": ({k: v for k, v in good.items() if k != "seed"}, "missing fields"),
    }
    for data, words in bad_cases.values():
        with pytest.raises(ReplayError, match=words):
            validate_replay(data)
    # A legal-looking id that is illegal at its point of the game.
    state = envs.game_class("last_heroes_v0")(num_players=2).new_state(1)
    illegal = next(a for a in range(state.game.num_actions) if not state.legal_mask()[a])
    with pytest.raises(ReplayError, match=r"replay action #1 .* is illegal"):
        Session.from_replay({**good, "actions": [illegal]})
    with pytest.raises(ReplayError, match="after the end"):
        Session.from_replay({**good, "actions": good["actions"] + [good["actions"][-1]]})
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(good)[:-20])
    with pytest.raises(ReplayError, match="not valid JSON"):
        load_replay(path)
    with pytest.raises(ReplayError, match="no such replay"):
        load_replay(tmp_path / "none.json")


# -- the terminal ----------------------------------------------------------------------------------

BAD_INPUT = ["", "abc", "0", "999", "-3", "1.5", "/zzzz-no-such-action", "/", "?", "h", "b", "t", "l"]


def run_terminal(argv, answers, width=140):
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False)
    feed = iter(answers)
    prompts = []

    def input_fn(prompt):
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None  # what input() raises at the end of its input

    code = play.main(argv, input_fn=input_fn, console=console)
    return code, out.getvalue(), prompts


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_terminal_plays_a_whole_game_with_scripted_input(env_id, tmp_path):
    n = small_players(env_id)
    save = tmp_path / "saved.json"
    argv = [env_id, "--players", str(n), "--seed", "5", "--seat", "0=human", "--seat", "1=random", "--save", str(save)]
    code, text, prompts = run_terminal(argv, chain(BAD_INPUT, repeat("1")))
    assert code == 0
    assert "Game over" in text
    assert "type the number of an action" in text  # empty input
    assert "'abc' is not a number or a command" in text
    assert "0 is out of range" in text and "999 is out of range" in text and "-3 is out of range" in text
    assert "'1.5' is not a number" in text
    assert "no action matches" in text
    assert "hint (" in text and "probability" in text
    data = load_replay(save)
    assert data["env_id"] == env_id and data["outcome"] is not None
    replayed = Session.from_replay(data)
    assert replayed.is_over()
    assert len(prompts) >= len(BAD_INPUT) + 1


def test_terminal_quit_saves_and_resume_goes_on(tmp_path):
    save = tmp_path / "g.json"
    argv = ["heroes_and_monsters_v0", "--players", "2", "--seed", "2", "--seat", "1=random", "--save", str(save)]
    code, text, _ = run_terminal(argv, ["1", "1", "q"])
    assert code == 0 and "stopped before the end" in text
    saved = load_replay(save)
    assert saved["seats"] == ["human", "random"] and saved["outcome"] is None
    steps = len(saved["actions"])
    assert steps >= 2
    code, text, _ = run_terminal(["--resume", str(save)], repeat("1"))
    assert code == 0 and f"at step {steps}" in text and "Game over" in text
    assert load_replay(save)["outcome"] is not None
    # End of input (Ctrl-D) is a quit too, never a crash.
    code, text, _ = run_terminal(["last_bastion_v0", "--players", "1", "--seed", "1"], iter([]))
    assert code == 0 and "stopped before the end" in text


def test_terminal_replay_steps_through_a_game(tmp_path):
    session = play_out(Session.new("lost_legends_v0", 3, ["random", "human", "random"], seed=6))
    path = save_replay(tmp_path / "r.json", session.replay())
    code, text, prompts = run_terminal(["--replay", str(path), "--view", "1"], ["", "", "x", "10", "5", "e"])
    assert code == 0
    assert "end of the replay" in text and "Game over" in text
    assert "press Enter, type a step number" in text
    assert "picks a card (face down)" in text  # seat 1's view: others' picks stay secret
    assert prompts[0].startswith("step 0/")


def test_terminal_watch_a_game_between_bots():
    code, text, prompts = run_terminal(
        ["last_heroes_v0", "--seed", "1", "--seat", "0=random", "--seat", "1=random"], []
    )
    assert code == 0 and prompts == [] and "Game over" in text and "player_1 (random):" in text


def test_terminal_hint_option_and_errors(tmp_path):
    code, text, _ = run_terminal(["last_heroes_v0", "--seed", "3", "--seat", "1=random", "--hint", "heuristic"], ["q"])
    assert code == 0 and "hint (heuristic)" in text
    with pytest.raises(SystemExit):
        run_terminal(["nope_v0"], [])
    with pytest.raises(SystemExit):
        run_terminal(["last_heroes_v0", "--seat", "zero=human"], [])
    code, text, _ = run_terminal(["last_heroes_v0", "--players", "7"], [])
    assert code == 2 and "played by 2 to 5" in text
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, text, _ = run_terminal(["--resume", str(bad)], [])
    assert code == 2 and "not valid JSON" in text
