"""End to end in a real headless browser: Debian's chromium driven by selenium through chromedriver.

The server runs in a thread on a free loopback port; the test opens the page, starts a game, plays
it to the end by clicking (board items and action buttons), asks for a hint, and saves a screenshot
(to ``$HEROZOO_SCREENSHOT_DIR`` too when that is set). Skipped, saying why, when chromium,
chromedriver or selenium is missing, unless ``HEROZOO_REQUIRE_BROWSER=1`` (as CI sets), which
makes a missing browser a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
try:
    import selenium  # noqa: F401

    SELENIUM = True
except ImportError:  # pragma: no cover - depends on the machine
    SELENIUM = False

MISSING = [
    what
    for what, ok in (
        ("chromium (apt-get install chromium)", CHROMIUM),
        ("chromedriver (apt-get install chromium-driver)", CHROMEDRIVER),
        ("selenium (pip install selenium)", SELENIUM),
    )
    if not ok
]
if MISSING and os.environ.get("HEROZOO_REQUIRE_BROWSER") != "1":
    pytestmark = pytest.mark.skip(reason="browser test needs " + ", ".join(MISSING))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url():
    import uvicorn

    from training.playing.server import create_app

    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(allowed_hosts=["127.0.0.1", "localhost"]), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    assert not MISSING, "browser test needs " + ", ".join(MISSING)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ):
        options.add_argument(arg)
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def test_play_a_whole_game_by_clicking(server_url, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    d = browser
    wait = WebDriverWait(d, 20)
    d.get(server_url + "/")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    Select(d.find_element(By.ID, "game")).select_by_value("last_heroes_v0")
    Select(d.find_element(By.ID, "players")).select_by_value("2")
    Select(d.find_element(By.ID, "bot-1")).select_by_value("random")
    d.find_element(By.ID, "seed").send_keys("7")
    d.find_element(By.ID, "start").click()
    main = d.find_element(By.ID, "main")
    wait.until(lambda d: main.get_attribute("data-step") not in (None, "-1"))
    assert d.find_elements(By.CSS_SELECTOR, "#board .section") and d.find_element(By.ID, "title").text

    # A hint, then the filter box, before the first move.
    d.find_element(By.ID, "hint").click()
    wait.until(lambda d: "would play" in d.find_element(By.ID, "hint-text").text)
    buttons = d.find_elements(By.CSS_SELECTOR, "#actions button.action")
    box = d.find_element(By.ID, "filter")
    box.send_keys("zzzz-nothing")
    assert not d.find_elements(By.CSS_SELECTOR, "#actions button.action")
    box.clear()
    box.send_keys(" ")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#actions button.action")) == len(buttons))

    by_board = by_button = 0
    for _ in range(500):
        if main.get_attribute("data-over") == "true":
            break
        step = main.get_attribute("data-step")
        items = d.find_elements(By.CSS_SELECTOR, "#board .item.clickable")
        if items and by_board <= by_button:
            d.execute_script("arguments[0].scrollIntoView({block: 'center'});", items[0])
            items[0].click()
            menu = d.find_elements(By.CSS_SELECTOR, "#menu:not([hidden]) button")
            if menu:
                menu[0].click()
            by_board += 1
        else:
            button = d.find_elements(By.CSS_SELECTOR, "#actions button.action")[0]
            d.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
            button.click()
            by_button += 1
        wait.until(lambda d, step=step: main.get_attribute("data-step") != step)
    assert main.get_attribute("data-over") == "true", "the game did not end"
    assert by_board > 0 and by_button > 0
    result = d.find_element(By.ID, "result")
    assert result.is_displayed() and "Game over" in result.text
    assert d.find_elements(By.CSS_SELECTOR, "#log li")
    assert "/replay" in d.find_element(By.ID, "replay").get_attribute("href")
    shot = tmp_path / "play_last_heroes.png"
    assert d.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = os.environ.get("HEROZOO_SCREENSHOT_DIR")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(out) / shot.name)
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    assert not errors, errors


def test_a_cooperative_game_starts_and_an_illegal_click_is_survived(server_url, browser):
    """A stale action (another tab moved first) gets the message and the current state."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    d = browser
    wait = WebDriverWait(d, 20)
    d.get(server_url + "/")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    Select(d.find_element(By.ID, "game")).select_by_value("last_bastion_v0")
    Select(d.find_element(By.ID, "players")).select_by_value("2")
    d.find_element(By.ID, "start").click()
    main = d.find_element(By.ID, "main")
    wait.until(lambda d: main.get_attribute("data-step") not in (None, "-1"))
    assert "Last Bastion" in d.find_element(By.ID, "title").text
    # Play one move behind the page's back, then click: the page is told it was stale and catches up.
    step = int(main.get_attribute("data-step"))
    d.execute_script(
        "const s = current; return fetch(`/api/games/${gameId}/act`, {method: 'POST', headers: "
        "{'Content-Type': 'application/json'}, body: JSON.stringify({action: s.legal[0].id, step: s.step})});"
    )
    d.find_elements(By.CSS_SELECTOR, "#actions button.action")[0].click()
    wait.until(lambda d: d.find_element(By.ID, "message").is_displayed())
    assert "stale" in d.find_element(By.ID, "message").text
    wait.until(lambda d: int(main.get_attribute("data-step")) > step)
