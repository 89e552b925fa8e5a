"""The browsable pages `skb publish` writes, in a real browser.

Usage: browser_test.py SKB AXE_MIN_JS SHOTS_DIR COLLECTION...

Publishes the collections (the shared corpus) as one index, signed with a
new key, the way a publisher would, after leaving out what a well-known index cannot hold
(a second skill of the same name, a description over the schema's 1,024
characters; both named), and a second site of one hostile skill. Serves
both from a loopback HTTP server and drives headless Chromium (Debian's
`chromium` and `chromium-driver`, through selenium) over them:

- DOM facts: every skill of index.json listed and linked, landmarks, the
  skip link, the language, the install lines on each skill's page, the
  filter the inline script adds (and the page complete without script);
- axe-core (npm `axe-core`, its `axe.min.js` injected) finds no violation
  on the index page and on the skill pages it visits;
- the hostile skill's `<script>`, quotes and `javascript:` URL are inert
  text;
- every link of every page names a file that exists;
- screenshots at 1280x800 and 390x844 into SHOTS_DIR.

Prints the figures: page weight (index.html, all pages), publish time with
and without the pages (same inputs, same run), axe-core's violations.
Exits non-zero on the first failed check.
"""

import functools
import html.parser
import http.server
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

WELL_KNOWN = ".well-known/agent-skills"
SITE = "https://skills.example"


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check(cond, message):
    if not cond:
        fail(message)


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"{' '.join(map(str, cmd))} exited {out.returncode}:\n{out.stderr[-4000:]}")
    return out.stdout


def publishable_copy(skb, collections, into):
    """The collections copied under `into`, less the skills an index
    cannot hold; returns the copies and what was left out."""
    roots = []
    for c in collections:
        dst = into / pathlib.Path(c).name
        shutil.copytree(c, dst, symlinks=True)
        roots.append(dst)
    report = json.loads(
        run([skb, "validate", *roots, "--profile", "claude-code", "--format", "json"])
    )
    seen, left_out, dirs = set(), [], {}
    for skill in report["skills"]:
        if not skill["name"]:
            continue
        name = skill["name"].split(":")[-1]
        if name in seen:
            shutil.rmtree(skill["dir"])
            left_out.append((skill["dir"], "a second skill of this name"))
        else:
            dirs[name] = skill["dir"]
        seen.add(name)
    # What the index's schema refuses, as `skb publish` names it.
    for _ in range(50):
        out = subprocess.run(
            [skb, "publish", *roots, "--out", into / "trial", "--release", "0.0.0", "--no-html",
             "--profile", "claude-code"], capture_output=True, text=True)
        shutil.rmtree(into / "trial", ignore_errors=True)
        hit = re.search(r"cannot publish `([a-z0-9-]+)`: (`description` is [0-9]+ characters)",
                        out.stderr)
        if out.returncode == 0 or not hit or hit.group(1) not in dirs:
            break
        shutil.rmtree(dirs[hit.group(1)])
        left_out.append((dirs.pop(hit.group(1)), hit.group(2)))
    left_out = [(str(pathlib.Path(d).relative_to(into)), why) for d, why in left_out]
    return roots, left_out, len([s for s in report["skills"] if s["name"]])


def publish(skb, roots, out, key, *extra):
    start = time.perf_counter()
    run([skb, "publish", *roots, "--out", out, "--release", "1.0.0", "--base-url", SITE,
         "--sign", key, "--profile", "claude-code", *extra])
    return time.perf_counter() - start


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src"):
                self.hrefs.append(v)


def check_links(root):
    """Every href and src of every page is a file here, or an anchor."""
    pages = sorted(root.rglob("*.html"))
    for page in pages:
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for href in parser.hrefs:
            check(not href.lower().startswith(("javascript:", "data:", "http:", "https:", "//")),
                  f"{page}: link {href!r} leaves the site or runs code")
            target = href.split("#", 1)[0]
            if not target:
                continue
            path = (page.parent / urllib.parse.unquote(target)).resolve()
            check(path.is_file() and root.resolve() in path.parents,
                  f"{page}: link {href!r} names no file of the site")
    return len(pages)


def serve(directory):
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def browser():
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-US"):
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
    })


def axe(driver, axe_js):
    driver.execute_script(axe_js)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done({passes: r.passes.length, violations: r.violations.map(v => ({id: v.id,"
        " impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))"
        "}))}))"
        ".catch(e => done({passes: 0, violations: [{id: 'axe-error', help: String(e)}]}));"
    )
    # A run that checked nothing (blocked, or on an empty page) is no pass.
    check(result["passes"] >= 10, f"axe-core passed only {result['passes']} rules: {result}")
    return result["violations"]


def dom_facts(driver, names):
    html_el = driver.find_element(By.TAG_NAME, "html")
    check(html_el.get_attribute("lang") == "en", "index: <html lang> is not en")
    for tag in ("header", "nav", "main", "footer"):
        check(len(driver.find_elements(By.TAG_NAME, tag)) == 1, f"index: not one <{tag}>")
    skip = driver.find_element(By.CSS_SELECTOR, "a.skip")
    check(skip.get_attribute("href").endswith("#main"), "index: no skip link to #main")
    listed = [a.get_attribute("textContent") for a in
              driver.find_elements(By.CSS_SELECTOR, ".skills h3 a")]
    check(sorted(listed) == sorted(names),
          f"index lists {len(listed)} skills, index.json {len(names)}")
    h1 = driver.find_elements(By.TAG_NAME, "h1")
    check(len(h1) == 1, "index: not one <h1>")
    # The filter the script adds, labelled; it narrows the list.
    box = driver.find_element(By.ID, "q")
    label = driver.find_element(By.CSS_SELECTOR, "label[for=q]")
    check(label.text.strip() != "", "filter: no label")
    box.send_keys(names[0])
    shown = [li for li in driver.find_elements(By.CSS_SELECTOR, ".skills li") if li.is_displayed()]
    check(0 < len(shown) < len(names), f"filter on {names[0]!r} shows {len(shown)} skills")
    box.clear()
    box.send_keys("zzzz-no-such-skill-zzzz")
    shown = [li for li in driver.find_elements(By.CSS_SELECTOR, ".skills li") if li.is_displayed()]
    check(len(shown) == 0, "filter on nonsense shows skills")


def skill_facts(driver, name, key_id):
    for tag in ("header", "nav", "main", "footer"):
        check(len(driver.find_elements(By.TAG_NAME, tag)) == 1, f"{name}: not one <{tag}>")
    text = driver.find_element(By.TAG_NAME, "main").text
    check(f"skb add {SITE} --skill {name}" in text, f"{name}: no skb add line")
    check(f"npx skills add {SITE} --skill {name}" in text, f"{name}: no npx skills line")
    check(f"key {key_id}" in text, f"{name}: the signer's key id {key_id} is not named")
    check("/plugin install " in text or "None: this skill was not published from a plugin" in text,
          f"{name}: no Claude Code line")
    heads = [int(h.tag_name[1]) for h in driver.find_elements(By.CSS_SELECTOR, "h1,h2,h3,h4")]
    check(all(b - a <= 1 for a, b in zip(heads, heads[1:])), f"{name}: headings skip a level")


def hostile_site(skb, into):
    skill = into / "src" / "evil-page"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: evil-page\n"
        "description: '<script>window.__pwned=1</script> \"quoted\" ''single'' "
        "javascript:window.__pwned=2 <img src=x onerror=\"window.__pwned=3\"> "
        "Use when testing escaping.'\n---\n# Evil\n\nNothing here.\n"
    )
    (skill / "<b>odd'name\".md").write_text("x\n")
    out = into / "site"
    run([skb, "publish", skill, "--out", out, "--release", "1.0.0"])
    return out


def main():
    if len(sys.argv) < 5:
        fail(__doc__)
    skb, axe_path, shots = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    collections = sys.argv[4:]
    axe_js = axe_path.read_text(encoding="utf-8")
    shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        roots, left_out, found = publishable_copy(skb, collections, tmp / "corpus")
        for path, why in left_out:
            print(f"left out {path}: {why}")
        key = tmp / "k.key"
        run([skb, "keygen", "-W", "-p", tmp / "k.pub", "-s", key])
        key_id = (tmp / "k.pub").read_text().splitlines()[0].rsplit(" ", 1)[-1]
        json_only = publish(skb, roots, tmp / "json-only", key, "--no-html")
        with_html = publish(skb, roots, tmp / "site", key)
        root = tmp / "site" / WELL_KNOWN
        before = {p: p.read_bytes() for p in root.rglob("*.html")}
        # A signature is new bytes each time: the same input signed again,
        # elsewhere, gives the same pages.
        again = publish(skb, roots, tmp / "again", key)
        other = tmp / "again" / WELL_KNOWN
        check({p.relative_to(other): p.read_bytes() for p in other.rglob("*.html")}
              == {p.relative_to(root): b for p, b in before.items()},
              "publishing the same input again gave other pages")
        index = json.loads((root / "index.json").read_text(encoding="utf-8"))
        names = [s["name"] for s in index["skills"]]
        check(len(before) == len(names) + 1, f"{len(before)} pages for {len(names)} skills")
        check(not list((tmp / "json-only").rglob("*.html")), "--no-html wrote pages")
        pages = check_links(root)
        index_bytes = (root / "index.html").stat().st_size
        total = sum(len(b) for b in before.values())
        print(f"corpus: {found} skills found, {len(names)} published, {len(left_out)} left out")
        print(f"page weight: index.html {index_bytes} bytes; {pages} pages {total} bytes")
        print(f"publish: {json_only:.2f} s JSON only, {with_html:.2f} s with the pages "
              f"(ratio {with_html / json_only:.2f}); again elsewhere {again:.2f} s; "
              f"signed by {key_id}")

        evil = hostile_site(skb, tmp / "evil")
        server = serve(tmp)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        driver = browser()
        violations = 0
        try:
            viewport(driver, 1280, 800)
            driver.get(f"{base}/site/{WELL_KNOWN}/index.html")
            dom_facts(driver, names)
            driver.refresh()
            found_v = axe(driver, axe_js)
            violations += len(found_v)
            check(not found_v, f"axe-core on index.html: {json.dumps(found_v, indent=1)}")
            driver.save_screenshot(str(shots / "index-desktop.png"))
            viewport(driver, 390, 844)
            driver.refresh()
            check(driver.execute_script(
                "return document.documentElement.scrollWidth <= window.innerWidth"),
                "index at 390 px scrolls sideways")
            found_v = axe(driver, axe_js)
            violations += len(found_v)
            check(not found_v, f"axe-core on index.html at 390 px: {found_v}")
            driver.save_screenshot(str(shots / "index-phone.png"))

            # Skill pages: the most files, the most findings, a plugin's,
            # and the first; axe on each, the DOM facts on all of them.
            def weight(n, what):
                text = before[root / n / "index.html"].decode()
                return text.count(what)
            sample = {names[0],
                      max(names, key=lambda n: weight(n, "<td class=\"n\">")),
                      max(names, key=lambda n: weight(n, "</code></td><td>")),
                      next((n for n in names if b"/plugin install" in
                            before[root / n / "index.html"]), names[-1])}
            viewport(driver, 1280, 800)
            # Every page's install lines and signer in its bytes; the
            # sample's in the browser, with axe-core (a browser visit of
            # each of the 446 would double the check's time for little).
            for n in names:
                text = before[root / n / "index.html"].decode()
                for line in (f"skb add {SITE} --skill {n}", f"npx skills add {SITE} --skill {n}",
                             f"key <code>{key_id}</code>"):
                    check(line in text, f"{n}: no {line!r}")
            for n in sorted(sample):
                driver.get(f"{base}/site/{WELL_KNOWN}/{n}/index.html")
                skill_facts(driver, n, key_id)
                found_v = axe(driver, axe_js)
                violations += len(found_v)
                check(not found_v, f"axe-core on {n}: {found_v}")
            shot = max(names, key=lambda n: weight(n, "</code></td><td>"))
            driver.get(f"{base}/site/{WELL_KNOWN}/{shot}/index.html")
            driver.save_screenshot(str(shots / "skill-desktop.png"))
            viewport(driver, 390, 844)
            driver.refresh()
            check(driver.execute_script(
                "return document.documentElement.scrollWidth <= window.innerWidth"),
                f"{shot} at 390 px scrolls sideways")
            driver.save_screenshot(str(shots / "skill-phone.png"))

            # Without script: the list is whole, grouped by letter.
            driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
            driver.get(f"{base}/site/{WELL_KNOWN}/index.html")
            check(not driver.find_elements(By.ID, "q"), "a filter box without script")
            shown = [li for li in driver.find_elements(By.CSS_SELECTOR, ".skills li")
                     if li.is_displayed()]
            check(len(shown) == len(names), "without script, not every skill shows")
            check(len(driver.find_elements(By.CSS_SELECTOR, "nav a[href^='#letter-']")) > 1,
                  "without script, no letter index")
            driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})

            # The hostile skill: its text shows as text and nothing runs.
            viewport(driver, 1280, 800)
            for page in ("index.html", "evil-page/index.html"):
                driver.get(f"{base}/evil/site/{WELL_KNOWN}/{page}")
                check(driver.execute_script("return window.__pwned === undefined"),
                      f"hostile {page}: its description ran")
                check(not driver.find_elements(By.CSS_SELECTOR, "main img, main script"),
                      f"hostile {page}: its description made elements")
                check("<script>window.__pwned=1</script>" in
                      driver.find_element(By.TAG_NAME, "body").text,
                      f"hostile {page}: the description is not shown as text")
                found_v = axe(driver, axe_js)
                violations += len(found_v)
                check(not found_v, f"axe-core on hostile {page}: {found_v}")
            check_links(evil / WELL_KNOWN)
        finally:
            driver.quit()
            server.shutdown()
        print(f"axe-core {json.loads((axe_path.parent / 'package.json').read_text())['version']}:"
              f" {violations} violations on {len(sample) + 3} pages in 2 viewports")
        print("browser checks passed")


if __name__ == "__main__":
    main()
