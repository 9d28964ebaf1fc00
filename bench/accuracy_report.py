"""accuracy.py's report: warnings and flags per row and per source line, the
wavefronts/ideal agreement of the exact rows, coverage by cause, and the rows
that disagree (the tables docs/accuracy.md quotes)."""
import collections
import fractions
import re

from accuracy_sources import (eval_threads, fmt_frac, fmt_ratio, generic_reason,  # noqa: E402
                              normalise_function, pct, reason_class)


def data_remark(a):
    """A data-dependent access whose random values can conflict: the tool's
    remark with the expected cost on random data (never a warning)."""
    r = a.get("random_data")
    return a["status"] == "data-dependent" and r is not None and r["worst_wavefronts"] > r["worst_ideal"]


def flags(m):
    """Bounds (status "bound": which lanes run it, or a parameter's value, is
    not known) are reported as warnings or possible-conflict remarks when
    their worst case conflicts, data-dependent accesses as remarks with
    their expected cost on random data, and accesses whose partial tiles show
    excess wavefronts on the source page as remarks: weaker claims, counted
    separately."""
    return any((a["status"] in ("exact", "bound") and a["wavefronts"] > a["ideal"]) or data_remark(a)
               or a.get("boundary_warp") for a in m.recs)


def report_warnings(rows_v):
    """Matching, warnings and flags per row and per source line; returns the
    rows by source line and the number of lines analysed exactly."""
    n = len(rows_v)
    exact_rows = [x for x in rows_v if x[2] == "exact"]
    tp = sum(1 for x in rows_v if x[4] and x[1])
    fp = sum(1 for x in rows_v if x[4] and not x[1])
    fn = sum(1 for x in rows_v if not x[4] and x[1])
    fn_exact = sum(1 for x in exact_rows if not x[4] and x[1])
    tn_exact = sum(1 for x in exact_rows if not x[4] and not x[1])

    print()
    print("== Matching")
    vias = collections.Counter(x[0].via for x in rows_v)
    print("rows matched to the kernel's own records: %d (of which %d to a record of a multi-line "
          "statement reported 1-3 lines above); via a device helper's records: %d; "
          "line/op/kernel found but other access width: %d; no record: %d" % (
              vias["kernel"] + vias["above"], vias["above"], vias["helper"], vias["width"],
              vias["none"]))

    print()
    print("== Warnings, per CSV row (row = line x kernel x op x access size)")
    print("measured conflicted (wavefronts > ideal): %d of %d rows" % (
        sum(1 for x in rows_v if x[1]), n))
    print("tool warns (exact and worst-warp wavefronts > ideal): %d" % (tp + fp))
    print("precision: %d/%d = %s   recall: %d/%d = %s   recall among exactly analysed rows: %d/%d = %s" % (
        tp, tp + fp, pct(tp, tp + fp), tp, tp + fn, pct(tp, tp + fn),
        tp, tp + fn_exact, pct(tp, tp + fn_exact)))
    print("confusion among exactly analysed rows: TP %d  FP %d  FN %d  TN %d" % (
        tp, fp, fn_exact, tn_exact))
    ftp = sum(1 for x in rows_v if x[1] and flags(x[0]))
    ffp = sum(1 for x in rows_v if not x[1] and flags(x[0]))
    print("tool flags (exact or bound, worst case wavefronts > ideal: a warning or a possible-conflict "
          "remark; data-dependent with a random-data remark): %d rows; measured conflicted among them: %d; recall of flags: %d/%d = %s" % (
              ftp + ffp, ftp, ftp, tp + fn, pct(ftp, tp + fn)))

    # Per source line (file, line): conflicted if any row is; warns if any row warns.
    by_line = collections.defaultdict(list)
    for x in rows_v:
        by_line[(x[0].row["repo"], x[0].row["path"], x[0].row["line"])].append(x)
    ltp = lfp = lfn = 0
    lexact = 0
    for xs in by_line.values():
        c = any(x[1] for x in xs)
        w = any(x[4] for x in xs)
        lexact += all(x[2] == "exact" for x in xs)
        ltp += c and w
        lfp += w and not c
        lfn += c and not w
    print("per source line (%d lines): precision %d/%d = %s   recall %d/%d = %s" % (
        len(by_line), ltp, ltp + lfp, pct(ltp, ltp + lfp), ltp, ltp + lfn, pct(ltp, ltp + lfn)))
    # What a user reading the diagnostics sees: a line is flagged when any of
    # its accesses is warned or reported as a possible conflict.
    lftp = lffp = 0
    unflagged = []
    for key, xs in sorted(by_line.items()):
        c = any(x[1] for x in xs)
        f = any(flags(x[0]) for x in xs)
        lftp += c and f
        lffp += f and not c
        if c and not f:
            unflagged.append(key)
    lc = sum(1 for xs in by_line.values() if any(x[1] for x in xs))
    print("per source line, flags: %d lines flagged; measured conflicted among them: %d; "
          "recall of flags: %d/%d = %s" % (lftp + lffp, lftp, lftp, lc, pct(lftp, lc)))
    for repo, path, line in unflagged:
        print("  conflicted, not flagged: %s %s:%s" % (repo, path, line))
    return by_line, lexact


def report_ratio(rows_v):
    """wavefronts/ideal of the exact rows against the measurement."""
    exact_rows = [x for x in rows_v if x.state == "exact"]
    print()
    print("== wavefronts/ideal ratio: tool block_wavefronts/block_ideal vs measured wavefronts/ideal")
    print("   (rows whose every matching access is exact, i.e. the same pattern on every execution)")
    eq = close = 0
    comparable = [x for x in exact_rows if x[6] > 0 and x[0].row["ideal"] > 0]
    for x in comparable:
        t = fractions.Fraction(x[5], x[6])
        mm = fractions.Fraction(x[0].row["wavefronts"], x[0].row["ideal"])
        eq += t == mm
        close += abs(float(t) / float(mm) - 1) <= 0.02
    print("exact agreement: %d/%d = %s   within 2%%: %d/%d = %s" % (
        eq, len(comparable), pct(eq, len(comparable)), close, len(comparable),
        pct(close, len(comparable))))
    # Exact per execution: every iteration that may run costs the same, only
    # how many run is unknown (a loop bound that is a kernel argument): the
    # ratio of the block sums is the ratio of each execution.
    per_exec = [x for x in rows_v if x.state == "per-execution" and x[6] > 0 and x[0].row["ideal"] > 0]
    pe_eq = sum(1 for x in per_exec if fractions.Fraction(x[5], x[6]) ==
                fractions.Fraction(x[0].row["wavefronts"], x[0].row["ideal"]))
    print("exact per execution (execution count unknown): agreement %d/%d = %s" % (
        pe_eq, len(per_exec), pct(pe_eq, len(per_exec))))
    for x in per_exec:
        if fractions.Fraction(x[5], x[6]) != fractions.Fraction(x[0].row["wavefronts"], x[0].row["ideal"]):
            r = x[0].row
            print("  differs: %s:%d %s %s: measured %d/%d, tool %d/%d" % (
                r["path"], r["line"], normalise_function(r["function"]), r["op"], r["wavefronts"],
                r["ideal"], x[5], x[6]))
    zero_exec = [x for x in exact_rows if x[6] == 0]
    if zero_exec:
        print("exact rows whose tool block_ideal is 0 (tool says never executed, yet measured): %d"
              % len(zero_exec))

    # Absolute check where the measurement gives it directly: one-warp blocks,
    # where inst_executed counts executions of the line's instructions.
    single = [x for x in comparable
              if eval_threads(x[0].row["block_dim"]) <= 32 and x[0].row["inst_executed"] > 0]
    if single:
        print("absolute wavefronts per execution, one-warp blocks (measured wavefronts and ideal "
              "x accesses on the line / inst_executed, vs the tool's per-execution sums; assumes "
              "one SASS instruction per source access):")
        agree = 0
        for x in single:
            r = x[0].row
            k = fractions.Fraction(len(x[0].recs), r["inst_executed"])
            mw, mi = r["wavefronts"] * k, r["ideal"] * k
            same = (mw == x[5] and mi == x[6])
            agree += same
            if not same:
                print("  differs: %s:%d %s %s %d-bit: measured %s/%s per execution, tool %d/%d" % (
                    r["path"], r["line"], normalise_function(r["function"]), r["op"],
                    r["access_size"], fmt_frac(mw), fmt_frac(mi), x[5], x[6]))
        print("  agree: %d/%d" % (agree, len(single)))


def report_coverage(rows_v, by_line, lexact, all_records):
    """Rows and lines analysed exactly, why the others were not, record statuses."""
    n = len(rows_v)
    exact_rows = [x for x in rows_v if x.state == "exact"]
    print()
    print("== Coverage: measured rows/lines with shared accesses that the tool analysed exactly")
    print("rows: %d/%d = %s   source lines: %d/%d = %s   (weighted by measured wavefronts: %s)" % (
        len(exact_rows), n, pct(len(exact_rows), n), lexact, len(by_line), pct(lexact, len(by_line)),
        pct(sum(x[0].row["wavefronts"] for x in exact_rows), sum(x[0].row["wavefronts"] for x in rows_v))))
    causes = collections.Counter()
    for x in rows_v:
        if x[2] == "not-analysed":
            if x[3].startswith("width"):
                tool_bits = [int(w) for w in re.findall(r"\d+", x[3].split("bits")[0])]
                wider = x[0].row["access_size"] > max(tool_bits)
                causes["width mismatch: measured access %s than the source's (%s)" % (
                    "wider" if wider else "narrower",
                    "compiler merged adjacent accesses" if wider else "compiler split it")] += 1
            else:
                causes[x[3]] += 1
        elif x[2] in ("inexact", "per-execution"):
            causes["%s%s (%s)" % (x[3].split(":")[0], ", exact per execution" if x[2] == "per-execution" else "",
                                  reason_class(x[3].split(":", 1)[1].strip()))] += 1
    print("rows not analysed exactly, by cause:")
    for c, k in causes.most_common():
        print("  %4d  %s" % (k, c))

    print()
    print("== Status of tool records")
    for title, recs in (("records matched to CSV rows", [a for x in rows_v for a in x[0].recs]),
                        ("all records in the analysed files", list(all_records.values()))):
        st = collections.Counter(a["status"] for a in recs)
        print("%s: %d  (%s)" % (title, len(recs), ", ".join("%s %d" % kv for kv in sorted(st.items()))))
        reasons = collections.Counter(generic_reason(a["reason"]) for a in recs
                                      if a["status"] != "exact")
        for reason, k in reasons.most_common(8):
            print("  %4d  %s" % (k, reason))


def report_disagreements(args, rows_v):
    """Every row where the tool and the measurement disagree (all with --all-rows)."""
    print()
    print("== %s" % ("All rows" if args.all_rows else "Disagreements"))
    print("kind: FP tool warns, measured clean; FN measured conflicted, tool silent/inexact; "
          "FLAG measured conflicted, tool reports a bound or possible conflict (not exact); "
          "RATIO exact but wavefronts/ideal differ; MISS not analysed exactly")
    hdr = "%-5s %-58s %5s %-34s %-3s %4s %9s %9s %8s | %7s %7s %8s  %s" % (
        "kind", "file", "line", "kernel", "op", "bits", "meas.wf", "meas.id", "m.ratio",
        "tool.wf", "tool.id", "t.ratio", "tool status / reason")
    print(hdr)
    out = []
    for x in rows_v:
        m, meas_conf, state, why, warns, bw, bi = x
        r = m.row
        kind = None
        if warns and not meas_conf:
            kind = "FP"
        elif meas_conf and not warns:
            kind = "FLAG" if flags(m) else "FN"
        elif state == "exact" and bi and r["ideal"] and \
                fractions.Fraction(bw, bi) != fractions.Fraction(r["wavefronts"], r["ideal"]):
            kind = "RATIO"
        elif state != "exact":
            kind = "MISS"
        if kind is None and not args.all_rows:
            continue
        fn_name = normalise_function(r["function"])
        line = "%-5s %-58s %5d %-34s %-3s %4d %9d %9d %8s | %7s %7s %8s  %s" % (
            kind or "ok", r["path"][-58:], r["line"], fn_name[:34], r["op"], r["access_size"],
            r["wavefronts"], r["ideal"], fmt_ratio(r["wavefronts"], r["ideal"]),
            bw if state == "exact" else "-", bi if state == "exact" else "-",
            fmt_ratio(bw, bi) if state == "exact" else "-",
            (why or "exact") + (" [via helper]" if m.via == "helper" else "") +
            (" [%s]" % m.width_note if m.via == "above" else ""))
        out.append(((kind or "ok"), r["path"], r["line"], line))
    order = {"FN": 0, "FP": 1, "RATIO": 2, "FLAG": 3, "MISS": 4, "ok": 5}
    print("counts: " + ", ".join("%s %d" % (k, sum(1 for o in out if o[0] == k))
                                 for k in sorted(order, key=order.get)))
    for o in sorted(out, key=lambda t: (order[t[0]], t[1], t[2])):
        print(o[3])

    print()
    print("Matching notes: rows are matched by (file, line, op, access width in bits) within the "
          "run for the row's block shape; among records of that line the profiled kernel's "
          "(template arguments normalised) are used, else those of device helpers (reported "
          "under the helper's name, not per call site); several accesses of one line are summed.")
