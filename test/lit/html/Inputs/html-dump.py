#!/usr/bin/env python3
"""Reads a page of cuda-bank-lint's HTML report (--html=DIR) with html.parser
and prints what the tests check, one fact per line:

  page: <title>
  summary: <cells of each row of the index's conflict table, joined by ' | '>
  card <id> <classes>: <the finding's text ("warning 32-way ...") or ->
    grid rows=<n> banks=<n> caption=<figcaption text>
    bank <b>: <row>=<lanes> ...        (every bank with a cell, in row order)
  source <id>: <the marked line's text, as the browser shows it>
  not-modelled: <text of each list item or table row of that section>
  error: ...      (a tag closed that is not open, one left open at the end)
  external: ...   (a script, a stylesheet link, an image or any http(s) URL)
"""
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "hr", "input", "link", "area", "base", "col", "embed", "source", "wbr"}
SVG_VOID = {"rect", "line", "path", "circle"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.title = ""
        self.cards = []          # [id, classes, level, finding, grids, source]
        self.summary = []        # rows of cells
        self.not_modelled = []
        self.errors = []
        self.text_sink = None    # list to append text to
        self.row = None
        self.cell = None
        self.in_summary = False
        self.in_not_modelled = False
        self.item = None
        self.caption = None
        self.card_depth = None   # depth of the stack inside the open card

    def card(self):
        return self.cards[-1] if self.cards and self.card_depth is not None else None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href"):
            if a.get(key, "").startswith(("http:", "https:", "//")):
                self.errors.append("external: %s=%s" % (key, a[key]))
        if tag in ("script", "link", "img", "iframe", "object"):
            self.errors.append("external: <%s>" % tag)
        if tag not in VOID and tag not in SVG_VOID:
            self.stack.append(tag)
        cls = a.get("class", "")
        if tag == "section" and "card" in cls.split():
            self.cards.append({"id": a.get("id", ""), "class": cls, "finding": None, "grids": [],
                               "source": None})
            self.card_depth = len(self.stack)
        if tag == "section" and a.get("id") == "not-modelled":
            self.in_not_modelled = True
        if tag == "table" and cls == "summary":
            self.in_summary = True
        if tag == "tr" and (self.in_summary or self.in_not_modelled):
            self.row = []
        if tag in ("td", "th") and self.row is not None:
            self.cell = []
        if tag == "li" and self.in_not_modelled:
            self.item = []
        if tag == "p" and "finding" in cls.split() and self.card() is not None:
            self.card()["finding"] = []
        if tag == "svg" and self.card() is not None:
            self.card()["grids"].append({"rows": a.get("data-rows"), "banks": a.get("data-banks"),
                                         "cells": [], "caption": ""})
        if tag == "g" and "cell" in cls.split() and self.card() is not None and self.card()["grids"]:
            self.card()["grids"][-1]["cells"].append(
                (int(a["data-bank"]), int(a["data-row"]), a["data-lanes"]))
        if tag == "figcaption":
            self.caption = []
        if tag == "span" and "hit" in cls.split() and self.card() is not None:
            self.card()["source"] = []
        if tag == "title" and not self.stack[:-1]:
            pass

    def handle_endtag(self, tag):
        if tag in VOID or tag in SVG_VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("error: </%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if self.card_depth is not None and len(self.stack) < self.card_depth:
            self.card_depth = None
        if tag == "table":
            self.in_summary = False
        if tag == "section":
            self.in_not_modelled = False
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        if tag == "tr" and self.row is not None:
            (self.summary if self.in_summary else self.not_modelled).append(" | ".join(self.row))
            self.row = None
        if tag == "li" and self.item is not None:
            self.not_modelled.append(" ".join("".join(self.item).split()))
            self.item = None
        if tag == "p" and self.card() is not None and isinstance(self.card()["finding"], list):
            self.card()["finding"] = " ".join("".join(self.card()["finding"]).split())
        if tag == "figcaption" and self.caption is not None:
            if self.card() is not None and self.card()["grids"]:
                self.card()["grids"][-1]["caption"] = " ".join("".join(self.caption).split())
            self.caption = None
        if tag == "span" and self.card() is not None and isinstance(self.card()["source"], list) \
                and self.stack.count("span") == 0:
            self.card()["source"] = "".join(self.card()["source"])

    def handle_data(self, data):
        if "title" in self.stack and "svg" not in self.stack and "head" in self.stack:
            self.title += data
        if self.cell is not None:
            self.cell.append(data)
        if self.item is not None:
            self.item.append(data)
        c = self.card()
        if c is not None and isinstance(c["finding"], list):
            c["finding"].append(data)
        if self.caption is not None:
            self.caption.append(data)
        if c is not None and isinstance(c["source"], list):
            c["source"].append(data)


def main():
    page = Page()
    with open(sys.argv[1], encoding="utf-8") as f:
        page.feed(f.read())
    page.close()
    print("page:", page.title)
    for row in page.summary:
        print("summary:", row)
    for c in page.cards:
        print("card %s %s: %s" % (c["id"], c["class"], c["finding"] or "-"))
        for g in c["grids"]:
            print("  grid rows=%s banks=%s caption=%s" % (g["rows"], g["banks"], g["caption"]))
            banks = {}
            for bank, row, lanes in sorted(g["cells"], key=lambda x: (x[0], x[1])):
                banks.setdefault(bank, []).append("%d=%s" % (row, lanes))
            for bank in sorted(banks):
                print("  bank %d: %s" % (bank, " ".join(banks[bank])))
        if c["source"] is not None:
            print("source %s: %s" % (c["id"], c["source"].rstrip("\n")))
    for item in page.not_modelled:
        print("not-modelled:", item)
    if page.stack:
        page.errors.append("error: left open: %s" % " ".join(page.stack))
    for e in page.errors:
        print(e)


if __name__ == "__main__":
    main()
