"""accuracy.py per source line, from the diagnostics a user reads: user mode (the
tool without --block-dim) beside the pinned runs."""
import argparse
import collections
import concurrent.futures
import csv
import fractions
import json
import os
import re
import subprocess
import sys

from accuracy_sources import base_name, fmt_ratio, normalise_function, pct

# --------------------------------------------------------------------------
# Per source line, from the diagnostics (user mode and the pinned runs)
# --------------------------------------------------------------------------

BANK_CHECK = "cuda-shared-bank-conflict"
# The note BankConflictCheck adds to a finding in a device helper, located at
# the outermost call in the kernel (the same position as the records'
# call_site).
CALLED_FROM_RE = re.compile(r"^in '(.*)' as called from '(.*)' here")
# A finding in a library's (system) header is reported at the user's frame
# and names the access's own line in this note: where the measurement is.
ACCESS_HERE_RE = re.compile(r"^the access is here, in '")
# The other instances of a merged finding (one finding per location): "also
# reading: 2-way (...) in 'K<16>' through the call at line 9 with block ...",
# located at that call (else at the launch or the function).
ALSO_RE = re.compile(r"^also (?:reading|writing|in '[^']*' (?:reading|writing|on)|[^:]*): .* in '([^']+)'"
                     r"( through the call at line \d+)?")
# A diagnostic names its function only for a template ("... writing 'As' in
# 'MatrixMulCUDA<16>': ...", "... reading '__smem_d' through 'sdata' in
# 'reduce0<double>': ..." when the source indexes a pointer to the buffer).
DIAG_FN_RE = re.compile(r"\b(reading|writing) '[^']*'(?: through '[^']*')?(?: in '([^']*)')?:")


def error_summary(err, n=3):
    """The first compiler errors of a failed run's stderr (else its last lines)."""
    lines = (err or "").strip().splitlines()
    errs = [l for l in lines if re.search(r"\b(fatal )?error:", l)]
    if not errs:
        return lines[-6:]
    return errs[:n] + (["... %d more error lines" % (len(errs) - n - 1)] if len(errs) > n + 1 else []) \
        + ([errs[-1]] if len(errs) > n else [])


def print_failures(failures, sources):
    """failures: [((repo, tu), block_dim or None, rc, stderr)]; one entry per
    translation unit (and error), its block shapes listed."""
    groups = collections.OrderedDict()
    for (repo, tu), bd, rc, err in sorted(failures, key=lambda t: (t[0], t[1] or "")):
        summary = tuple(error_summary(err))
        groups.setdefault((repo, tu, rc, summary), []).append(bd)
    for (repo, tu, rc, summary), bds in groups.items():
        print("  TOOL FAILURE rc=%s on %s (%s):\n    %s" % (
            rc, os.path.relpath(tu, sources[repo]),
            "no --block-dim" if bds == [None] else "--block-dim=" + " ".join(bds),
            "\n    ".join(summary)))


def run_failed(doc, rc):
    return doc is None or rc not in (0, 1) or bool(doc and doc.get("errors"))


def diagnostic_functions(d, fns_at):
    """The kernel(s) a diagnostic is about: the caller named by its call note
    (a helper analysed at a call), else the template named in its message,
    else the non-template functions with a record at its position and op."""
    for n in d.get("notes", []):
        m = CALLED_FROM_RE.match(n.get("message", ""))
        if m:
            return {m.group(2)}
    m = DIAG_FN_RE.search(d["message"])
    if m and m.group(2):
        return {m.group(2)}
    op = {"reading": "ld", "writing": "st"}.get(m.group(1)) if m else None
    return {f for (fl, ln, col, o), fs in fns_at.items()
            if (fl, ln, col) == (d["file"], d["line"], d["column"]) and o == (op or o)
            for f in fs if "<" not in f}


def diagnostic_lines(doc, root, callsite, stats):
    """(realpath, line) -> [diagnostic] of the bank-conflict check in one run.

    With callsite attribution a helper's diagnostic counts at the outermost
    call in the kernel.  That is read from the diagnostic's own note "in 'H' as
    called from 'K' here" (located at that call): the note belongs to the one
    access the diagnostic is about, whereas access records are keyed only by
    the helper's file/line/column, which every call of the helper shares (scan's
    helpers are called from two kernels at two call sites), so a record lookup
    is ambiguous exactly where it matters.  Records are the fallback, used only
    when the note is missing and all records at the position agree on one
    call_site (stats counts both cases)."""
    out = collections.defaultdict(list)
    if not doc:
        return out
    sites_at = collections.defaultdict(set)
    if callsite:
        for a in doc.get("accesses", []):
            if a.get("call_site"):
                cs = a["call_site"]
                sites_at[(a["file"], a["line"], a["column"])].add(
                    (cs["file"], cs["line"]))
    fns_at = collections.defaultdict(set)
    for a in doc.get("accesses", []):
        fns_at[(a["file"], a["line"], a["column"], a["op"])].add(a["function"])
    for d in doc.get("diagnostics", []):
        if d.get("check") != BANK_CHECK:
            continue
        # A merged finding stands for each of its instances: score a copy per
        # instance, attributed to its function (and, by call site, to its call).
        for n in d.get("notes", []):
            m = ALSO_RE.match(n.get("message", ""))
            if not m:
                continue
            inst = dict(d, notes=[], _fns={m.group(1)})
            fname, line = d["file"], d["line"]
            if callsite and m.group(2) and n.get("location"):
                fname, line = n["location"]["file"], n["location"]["line"]
                stats["mapped through a merged instance's call"] += 1
            out[(os.path.realpath(os.path.join(root, fname)), line)].append(inst)
        fname, line = d["file"], d["line"]
        d["_fns"] = diagnostic_functions(d, fns_at)
        if not callsite:
            here = [n["location"] for n in d.get("notes", [])
                    if n.get("location") and ACCESS_HERE_RE.match(n.get("message", ""))]
            if here:
                fname, line = here[0]["file"], here[0]["line"]
                stats["mapped to the access in a system header"] += 1
        if callsite:
            notes = [n["location"] for n in d.get("notes", [])
                     if n.get("location") and CALLED_FROM_RE.match(n.get("message", ""))]
            if notes:
                fname, line = notes[0]["file"], notes[0]["line"]
                stats["mapped through the call note"] += 1
            else:
                sites = sites_at.get((d["file"], d["line"], d["column"]), set())
                if len(sites) == 1:
                    fname, line = next(iter(sites))
                    stats["mapped through the records' call_site (no call note)"] += 1
                elif sites:
                    stats["left at its own line: no call note, records disagree"] += 1
        out[(os.path.realpath(os.path.join(root, fname)), line)].append(d)
    return out


def record_lines(doc, root, callsite):
    """(realpath, line) -> [access record], helpers at their call site with callsite."""
    out = collections.defaultdict(list)
    if not doc:
        return out
    for a in doc.get("accesses", []):
        fname, line = a["file"], a["line"]
        if callsite and a.get("call_site"):
            fname, line = a["call_site"]["file"], a["call_site"]["line"]
        out[(os.path.realpath(os.path.join(root, fname)), line)].append(a)
    return out


def short(msg, n=150):
    msg = " ".join(msg.split())
    return msg if len(msg) <= n else msg[:n - 3] + "..."


def score_mode(lines, runs_of_line, diag_index, failed, accept=None):
    """lines: key -> (realpath, line, conflicted).  runs_of_line(key) -> run keys;
    accept(line key, run key, diagnostic): whether it counts (default: all).
    Returns per-line (warned, remarked, diags, all_failed) and the counts."""
    per = {}
    for key, (real, ln, _c) in lines.items():
        rk = runs_of_line(key)
        ds, seen = [], set()
        for k in rk:
            for d in diag_index.get(k, {}).get((real, ln), []):
                if accept and not accept(key, k, d):
                    continue
                ident = (d["file"], d["line"], d["column"], d["severity"], d["message"])
                if ident not in seen:
                    seen.add(ident)
                    ds.append(d)
        warned = any(d["severity"] == "warning" for d in ds)
        remarked = any(d["severity"] == "remark" for d in ds)
        per[key] = (warned, remarked, ds, bool(rk) and all(k in failed for k in rk))
    conf = [k for k, v in lines.items() if v[2]]
    fig = {
        "lines": len(lines),
        "conflicted": len(conf),
        "warned": sum(1 for k in lines if per[k][0]),
        "false alarms": sum(1 for k, v in lines.items() if per[k][0] and not v[2]),
        "clean, remark only": sum(1 for k, v in lines.items()
                                  if per[k][1] and not per[k][0] and not v[2]),
        "conflicted warned": sum(1 for k in conf if per[k][0]),
        "conflicted warned or remarked": sum(1 for k in conf if per[k][0] or per[k][1]),
        "failed": sum(1 for k in lines if per[k][3]),
        "conflicted failed": sum(1 for k in conf if per[k][3]),
    }
    return per, fig


def unscored(diag_index, csv_real_lines, csv_files):
    """Distinct diagnostic lines of these runs that are not CSV lines."""
    locs = {}
    for idx in diag_index.values():
        for (real, ln), ds in idx.items():
            if (real, ln) in csv_real_lines:
                continue
            w = any(d["severity"] == "warning" for d in ds)
            locs[(real, ln)] = locs.get((real, ln), False) or w
    in_files = sum(1 for (real, _l) in locs if real in csv_files)
    warned = sum(1 for v in locs.values() if v)
    return len(locs), warned, in_files


def user_report(args, rows, sources, tus_of, user_results, pinned_results, callsite):
    print()
    print("== User mode: the tool without --block-dim, scored per source line from its diagnostics")
    print("one run per translation unit, the set's flags, no --block-dim (the block shape comes "
          "from the launches, __launch_bounds__, or is assumed, as for a user); a line is "
          "measured conflicted when any of its rows has wavefronts > ideal, warned when a "
          "%s warning is reported at it, remarked when a remark is%s%s" % (
              BANK_CHECK, "; a helper's diagnostic counts at the outermost call in the kernel"
              if callsite else "",
              "" if pinned_results is None else
              ".  The pinned column scores the --block-dim runs above the same way, counting a "
              "diagnostic only in the run of the shape its kernel was profiled with on that line"))
    print("tool runs: %d (translation units)" % len(user_results))
    ufailed = set()
    for key in sorted(user_results):
        cmd, doc, err, rc = user_results[key]
        if run_failed(doc, rc):
            ufailed.add(key)
        if args.dump:
            os.makedirs(args.dump, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]", "_", "%s__%s__user" % (
                key[0], os.path.relpath(key[1], sources[key[0]])))
            with open(os.path.join(args.dump, name + ".json"), "w") as f:
                json.dump({"command": cmd, "rc": rc, "stderr": err, "doc": doc}, f, indent=1)

    print_failures([(k, None, user_results[k][3], user_results[k][2]) for k in sorted(ufailed)],
                   sources)

    # CSV lines.
    by_line = collections.OrderedDict()
    for r in rows:
        by_line.setdefault((r["repo"], r["path"], r["line"]), []).append(r)
    lines = {}
    for key, rs in by_line.items():
        real = os.path.realpath(os.path.join(sources[key[0]], key[1]))
        lines[key] = (real, key[2], any(r["wavefronts"] > r["ideal"] for r in rs))
    csv_real_lines = {(v[0], v[1]) for v in lines.values()}
    csv_files = {v[0] for v in lines.values()}

    map_stats = collections.Counter()
    u_index = {k: diagnostic_lines(v[1], sources[k[0]], callsite, map_stats)
               for k, v in user_results.items()}
    u_per, u_fig = score_mode(
        lines, lambda key: [(key[0], tu) for tu in tus_of[(key[0], key[1])]], u_index, ufailed)
    figs = [("user", u_fig)]
    p_index = p_per = None
    if pinned_results is not None:
        pfailed = {k for k, v in pinned_results.items() if run_failed(v[1], v[3])}
        p_stats = collections.Counter()
        p_index = {k: diagnostic_lines(v[1], sources[k[0]], callsite, p_stats)
                   for k, v in pinned_results.items()}
        shapes = {key: sorted({bd for r in rs for bd in r["block_dim"].split("|")})
                  for key, rs in by_line.items()}
        # --block-dim applies to every kernel of the file: in the run of one
        # kernel's shape, the other kernels (and unprofiled instantiations) are
        # analysed at a shape they never ran with.  A diagnostic counts for a
        # line only in the run of the shape its kernel was profiled with there
        # (kernel from diagnostic_functions; helpers analysed on their own and
        # diagnostics that cannot be attributed always count).
        kernels_in_csv = {base_name(r["function"]) for r in rows}
        profiled = {key: {(normalise_function(r["function"]), bd)
                          for r in rs for bd in r["block_dim"].split("|")}
                    for key, rs in by_line.items()}

        def accept(key, run_key, d):
            fns = d.get("_fns") or set()
            return not fns or any((normalise_function(f), run_key[2]) in profiled[key]
                                  or base_name(f) not in kernels_in_csv for f in fns)
        # The runs made for the line's rows (with a flags module a file's rows
        # may have different translation units, each run at its rows' shapes).
        p_per, p_fig = score_mode(
            lines, lambda key: [(key[0], tu, bd) for tu in tus_of[(key[0], key[1])]
                                for bd in shapes[key] if (key[0], tu, bd) in pinned_results],
            p_index, pfailed, accept)
        figs.insert(0, ("pinned", p_fig))

    # How the user-mode runs chose the block shape (records on CSV lines).
    u_recs = {k: record_lines(v[1], sources[k[0]], callsite) for k, v in user_results.items()}
    src_count = collections.Counter()
    for key in lines:
        real, ln, _c = lines[key]
        for tu in tus_of[(key[0], key[1])]:
            for a in u_recs.get((key[0], tu), {}).get((real, ln), []):
                src_count[a.get("block_dim_source") or "?"] += 1
    print("block shape of the user-mode records on CSV lines: %s" % (
        ", ".join("%s %d" % kv for kv in src_count.most_common()) or "none"))
    if map_stats:
        print("helper diagnostics moved to their call site: %s" % (
            ", ".join("%s %d" % kv for kv in sorted(map_stats.items()))))

    print()
    print("per source line (%d lines, %d measured conflicted):" % (
        u_fig["lines"], u_fig["conflicted"]))
    names = [n for n, _f in figs]
    print("  %-46s %s" % ("", " | ".join("%-28s" % n for n in names)))

    def row(title, cell):
        print(("  %-46s %s" % (title, " | ".join("%-28s" % cell(n, f) for n, f in figs))).rstrip())
    row("lines warned", lambda n, f: "%d" % f["warned"])
    row("  of which measured clean (false alarms)", lambda n, f: "%d" % f["false alarms"])
    row("warning precision", lambda n, f: "%d/%d = %s" % (
        f["warned"] - f["false alarms"], f["warned"], pct(f["warned"] - f["false alarms"],
                                                          f["warned"])))
    row("recall of warnings", lambda n, f: "%d/%d = %s" % (
        f["conflicted warned"], f["conflicted"], pct(f["conflicted warned"], f["conflicted"])))
    row("recall of warnings + remarks", lambda n, f: "%d/%d = %s" % (
        f["conflicted warned or remarked"], f["conflicted"],
        pct(f["conflicted warned or remarked"], f["conflicted"])))
    row("clean lines with a remark only", lambda n, f: "%d" % f["clean, remark only"])
    row("lines whose every run failed (conflicted)", lambda n, f: "%d (%d)" % (
        f["failed"], f["conflicted failed"]))
    unsc = {"user": unscored(u_index, csv_real_lines, csv_files)}
    if p_index is not None:
        unsc["pinned"] = unscored(p_index, csv_real_lines, csv_files)
    row("diagnosed lines not in the CSV (not scored)", lambda n, f: "%d, %d warned, %d in CSV files"
        % unsc[n])

    def measured(key):
        rs = by_line[key]
        return "measured %d/%d = %s" % (sum(r["wavefronts"] for r in rs), sum(r["ideal"] for r in rs),
                                        fmt_ratio(sum(r["wavefronts"] for r in rs),
                                                  sum(r["ideal"] for r in rs)))

    def records_at(results, key, d):
        """The records (of every run) at a diagnostic's own position, of its
        kernel when that is known."""
        real = os.path.realpath(os.path.join(sources[key[0]], d["file"]))
        fns = {normalise_function(f) for f in d.get("_fns") or ()}
        return [a for k, v in results.items() if k[0] == key[0] and v[1]
                for a in v[1].get("accesses", [])
                if a["line"] == d["line"] and a["column"] == d["column"]
                and (not fns or normalise_function(a["function"]) in fns)
                and os.path.realpath(os.path.join(sources[key[0]], a["file"])) == real]

    print()
    for name, per, res in (("pinned", p_per, pinned_results), ("user", u_per, user_results)):
        if per is None:
            continue
        fa = [k for k in lines if per[k][0] and not lines[k][2]]
        print("%s mode, false alarms (warned, measured clean): %d" % (name, len(fa)))
        for key in sorted(fa):
            d = next(d for d in per[key][2] if d["severity"] == "warning")
            fns = sorted(d.get("_fns") or [])
            nfns = {normalise_function(f) for f in fns}
            own = [r for r in by_line[key] if not nfns or normalise_function(r["function"]) in nfns]
            tags = []
            if not own:
                tags.append("diagnostic for %s, not profiled on this line" % ", ".join(fns))
            recs = records_at(res, key, d)
            if name == "user":
                tags.append("block %s" % "/".join(sorted(
                    {a.get("block_dim_source") or "?" for a in recs}) or ["?"]))
            tw = {a["width"] * 8 for a in recs}
            mw = {r["access_size"] for r in own}
            if tw and mw and not tw & mw:
                tags.append("measured %s-bit, tool %s-bit: the compiler %s the access" % (
                    "/".join(map(str, sorted(mw))), "/".join(map(str, sorted(tw))),
                    "merged" if max(mw) > max(tw) else "split"))
            print("  %s %s:%d  %s%s\n      %s" % (
                key[0], key[1], key[2], measured(key), "".join("  [%s]" % t for t in tags),
                short(d["message"])))

    miss = [k for k in lines if lines[k][2] and not u_per[k][0] and not u_per[k][1]]
    print("user mode, conflicted lines neither warned nor remarked: %d" % len(miss))
    for key in sorted(miss):
        real, ln, _c = lines[key]
        if u_per[key][3]:
            why = "the tool failed on this file (TOOL FAILURE above)"
        else:
            recs = [a for tu in tus_of[(key[0], key[1])]
                    for a in u_recs.get((key[0], tu), {}).get((real, ln), [])]
            if not recs:
                why = "no access record on this line"
            else:
                st = collections.Counter(a["status"] for a in recs)
                bad = [a for a in recs if a["status"] != "exact"]
                worst = max(recs, key=lambda a: (a["wavefronts"] - a["ideal"], a["wavefronts"]))
                why = "records: %s" % ", ".join("%s %d" % kv for kv in sorted(st.items()))
                if bad:
                    why += "; %s" % bad[0]["reason"]
                else:
                    why += "; worst warp %d/%d wavefronts (%s), block %s from %s" % (
                        worst["wavefronts"], worst["ideal"],
                        "conflict-free" if worst["wavefronts"] <= worst["ideal"] else "conflict",
                        "x".join(map(str, worst.get("block_dim") or ["?"])),
                        worst.get("block_dim_source", "?"))
        print("  %s %s:%d  %s\n      %s" % (key[0], key[1], key[2], measured(key), short(why, 200)))

