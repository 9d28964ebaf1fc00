"""accuracy.py's inputs: compiler flags per repository, the translation units
that compiled a file, kernel names normalised, one tool run, reason classes."""
import argparse
import collections
import concurrent.futures
import csv
import fractions
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# Compiler flags per repository, as the ground-truth README gives them
# (nvcc -O3 -lineinfo -arch=sm_90 -std=c++17; -I Common for cuda-samples).
# {root} is the source tree, {dir} the directory of the translation unit.
REPO_FLAGS = {
    "NVIDIA/cuda-samples": ["-std=c++17", "-I", "{root}/Common"],
    # bank_conflict.cu declares 'register' variables: nvcc accepts them in C++17
    # (a warning), Clang makes it an error unless -Wno-register.
    "djmaster458/gpu-bank-conflict-timing": ["-std=c++17", "-Wno-register"],
}
DEFAULT_FLAGS = ["-std=c++17"]
# Extra flags for translation units under a path prefix.  Second set
# (README-open2.md): the -D/-I flags of each HeCBench benchmark's Makefile
# (-I relative to the benchmark directory, i.e. {dir}); llm.c's matmul_forward
# got -Xcompiler -fopenmp (nvcc's --use_fast_math has no Clang counterpart
# that matters here and is left out).  llm.c and GKLEE: -std=c++17 only.
PATH_FLAGS = {
    ("NVIDIA/cuda-samples", "Samples/5_Domain_Specific/FDTD3d/"):
        ["-I", "{root}/Samples/5_Domain_Specific/FDTD3d/inc"],
    ("zjin-lcf/HeCBench", "src/tridiagonal-cuda/"): ["-DUNIX", "-DBENCH_ITERATIONS=100"],
    ("zjin-lcf/HeCBench", "src/streamcluster-cuda/"): ["-DPROFILE_TMP"],
    ("zjin-lcf/HeCBench", "src/lud-cuda/"): ["-I", "{dir}/common"],
    ("zjin-lcf/HeCBench", "src/blockexchange-cuda/"):
        ["-I", "{dir}/../blockAccess-cuda", "-I", "{dir}/../warpexchange-cuda/"],
    ("karpathy/llm.c", "dev/cuda/matmul_forward.cu"): ["-fopenmp"],
}


# --------------------------------------------------------------------------
# Function names
# --------------------------------------------------------------------------

def _split_top(s, sep=","):
    """Split on sep at bracket depth 0."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


# Enumerators that are kernel template arguments, by value.  ncu prints an
# enumeration argument as a cast of its value, the tool by name
# ('(cub::CUB_300100_SM_900::BlockScanAlgorithm)0' vs 'cub::BLOCK_SCAN_RAKING');
# both are compared as the value.  Third set (README-open3.md, "Matching kernel
# names"): CUB's BlockScanAlgorithm and BlockReduceAlgorithm, HeCBench
# morphology's 'enum class MorphOpType { ERODE, DILATE }'.
ENUMERATORS = {
    "BLOCK_SCAN_RAKING": 0, "BLOCK_SCAN_RAKING_MEMOIZE": 1, "BLOCK_SCAN_WARP_SCANS": 2,
    "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY": 0, "BLOCK_REDUCE_RAKING": 1,
    "BLOCK_REDUCE_WARP_REDUCTIONS": 2,
    "MorphOpType::ERODE": 0, "MorphOpType::DILATE": 1,
}


def _enumerator_value(a):
    """ENUMERATORS' value of 'ns::NAME' or 'Enum::NAME' (qualifiers dropped
    from the left until a name is known), else None."""
    parts = a.split("::")
    for i in range(len(parts)):
        v = ENUMERATORS.get("::".join(parts[i:]))
        if v is not None:
            return v
    return None


def _normalise_targ(a):
    a = a.strip()
    # ncu prints non-type arguments with a C cast: (unsigned int)256, (bool)1,
    # (cub::CUB_300100_SM_900::BlockScanAlgorithm)0
    m = re.fullmatch(r"\(([A-Za-z_][A-Za-z_0-9: ]*)\)\s*(-?\w+)", a)
    if m:
        a = m.group(2)
    v = _enumerator_value(a)
    if v is not None:
        return str(v)
    if a in ("true", "false"):
        return "1" if a == "true" else "0"
    m = re.fullmatch(r"(-?\d+)[uUlL]*", a)
    if m:
        return str(int(m.group(1)))
    if "<" in a:
        return normalise_function(a)
    return re.sub(r"\s+", " ", a)


def normalise_function(name):
    """'void reduce6<int, (unsigned int)256, (bool)1>(T1 *, T1 *, unsigned int)'
    and 'reduce6<int, 256U, true>' both become 'reduce6<int,256,1>'."""
    s = name.strip()
    # Drop the parameter list: the last top-level '(...)' at the end.
    if s.endswith(")"):
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            if s[i] == ")":
                depth += 1
            elif s[i] == "(":
                depth -= 1
                if depth == 0:
                    s = s[:i].rstrip()
                    break
    # Drop a leading return type ('void ', 'static void ', ...) outside <>.
    depth = 0
    last_space = -1
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == " " and depth == 0:
            last_space = i
    if last_space >= 0:
        s = s[last_space + 1:]
    # Normalise template arguments.
    if "<" in s and s.endswith(">"):
        base, args = s.split("<", 1)
        args = args[:-1]
        s = base + "<" + ",".join(_normalise_targ(a) for a in _split_top(args)) + ">"
    return s


def base_name(name):
    return normalise_function(name).split("<", 1)[0].split("::")[-1]


# --------------------------------------------------------------------------
# Translation units
# --------------------------------------------------------------------------

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def _includes(path, cache={}):
    if path not in cache:
        try:
            with open(path, errors="replace") as f:
                cache[path] = [os.path.basename(x) for x in INCLUDE_RE.findall(f.read())]
        except OSError:
            cache[path] = []
    return cache[path]


def _includes_transitively(tu, target_base, search_dirs):
    seen, todo = set(), [tu]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        for inc in _includes(p):
            if inc == target_base:
                return True
            for d in search_dirs:
                c = os.path.join(d, inc)
                if os.path.isfile(c):
                    todo.append(c)
    return False


def _cmake_sources(d):
    """The .cu files named in add_executable/add_library of d/CMakeLists.txt."""
    p = os.path.join(d, "CMakeLists.txt")
    if not os.path.isfile(p):
        return None
    with open(p, errors="replace") as f:
        text = f.read()
    srcs = []
    for m in re.finditer(r"add_(?:executable|library)\s*\(([^)]*)\)", text):
        for tok in m.group(1).split():
            if tok.endswith(".cu"):
                srcs.append(os.path.normpath(os.path.join(d, tok)))
    return srcs or None


_MAKE_SOURCES_RE = re.compile(r"^(?:source|SRC)\s*[:+?]?=((?:.*\\\n)*.*)$", re.M)


def _make_sources(d):
    """The .cu files of the 'source = ...' (or 'SRC = ...') line of d/Makefile,
    the form of HeCBench's benchmark Makefiles ('$(...)' words are ignored)."""
    for name in ("Makefile", "makefile"):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            break
    else:
        return None
    with open(p, errors="replace") as f:
        text = f.read()
    srcs = []
    for m in _MAKE_SOURCES_RE.finditer(text):
        for tok in m.group(1).replace("\\\n", " ").split("#", 1)[0].split():
            if tok.endswith(".cu") and "$" not in tok:
                srcs.append(os.path.normpath(os.path.join(d, tok)))
    return srcs or None


def translation_units(root, relpath):
    """The .cu files that compiled root/relpath (itself, or its includers as
    listed in the nearest CMakeLists.txt's add_executable/add_library or
    Makefile's 'source =' line; else any includer in its directory tree)."""
    path = os.path.normpath(os.path.join(root, relpath))
    d = os.path.dirname(path)
    while True:
        srcs = _cmake_sources(d)
        if srcs is None:
            srcs = _make_sources(d)
        if srcs is not None or os.path.normpath(d) == os.path.normpath(root):
            break
        d = os.path.dirname(d)
    base = os.path.basename(path)
    if srcs:
        dirs = sorted({os.path.dirname(s) for s in srcs} | {os.path.dirname(path)})
        tus = [s for s in srcs if s == path or _includes_transitively(s, base, dirs)]
        if tus:
            return tus
    if path.endswith(".cu"):
        return [path]
    # No build file: any .cu below the header's directory's parent that includes it.
    top = os.path.dirname(os.path.dirname(path))
    cands = []
    for dp, _, fs in os.walk(top):
        for f in fs:
            if f.endswith(".cu"):
                c = os.path.join(dp, f)
                if _includes_transitively(c, base, [dp, os.path.dirname(path)]):
                    cands.append(c)
    return sorted(cands) or [path]


def flags_for(repo, root, tu):
    rel = os.path.relpath(tu, root)
    fl = list(REPO_FLAGS.get(repo, DEFAULT_FLAGS))
    for (r, prefix), extra in PATH_FLAGS.items():
        if r == repo and rel.startswith(prefix):
            fl += extra
    return [x.format(root=root, dir=os.path.dirname(tu)) for x in fl]


def load_flags_module(path):
    """A ground-truth set's module of translation units and flags, loaded from
    its path (e.g. ../shared/ground-truth/flags-open3.py): it defines
    translation_unit(repo, path, function) -> the .cu file (relative to the
    checkout) to parse for a CSV row, and FLAGS: (repo, that file) -> flags,
    with the placeholders {root} (the checkout) and {dir} (the directory of
    the translation unit)."""
    path = os.path.abspath(path)
    spec = importlib.util.spec_from_file_location(
        "cbl_flags_" + re.sub(r"\W", "_", os.path.basename(path)), path)
    if spec is None or spec.loader is None:
        sys.exit("accuracy.py: cannot load %s as a Python module" % path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if not callable(getattr(mod, "translation_unit", None)) or \
            not isinstance(getattr(mod, "FLAGS", None), dict):
        sys.exit("accuracy.py: %s defines no translation_unit() and FLAGS" % path)
    return mod


class TranslationUnits:
    """The translation units of a CSV row and their flags: the flags
    module's for the repositories its FLAGS name, else the built-in
    resolution (translation_units, flags_for)."""

    def __init__(self, sources, module=None):
        self.sources = sources
        self.module = module
        self.module_repos = {repo for repo, _tu in module.FLAGS} if module else set()
        self.unknown = set()   # (repo, path) of the module's repositories it does not know
        self._cache = {}

    def row_tus(self, r):
        """Absolute paths of the .cu files that compiled the row's access."""
        repo, path = r["repo"], r["path"]
        root = self.sources[repo]
        if repo in self.module_repos:
            key = (repo, path, r["function"])
            if key not in self._cache:
                try:
                    tu = self.module.translation_unit(repo, path, r["function"])
                except (KeyError, ValueError):
                    tu = None
                if tu is not None and (repo, tu) in self.module.FLAGS:
                    self._cache[key] = [os.path.normpath(os.path.join(root, tu))]
                else:
                    self.unknown.add((repo, path))
                    self._cache[key] = translation_units(root, path)
            return self._cache[key]
        key = (repo, path)
        if key not in self._cache:
            self._cache[key] = translation_units(root, path)
        return self._cache[key]

    def flags(self, repo, tu):
        root = self.sources[repo]
        rel = os.path.relpath(tu, root)
        if (repo, rel) in (self.module.FLAGS if self.module else {}):
            return [x.format(root=root, dir=os.path.dirname(tu))
                    for x in self.module.FLAGS[(repo, rel)]]
        return flags_for(repo, root, tu)


# --------------------------------------------------------------------------
# Running the tool
# --------------------------------------------------------------------------

def run_tool(tool, tu, block_dim, flags, cwd, timeout):
    """One JSON run; block_dim None: no --block-dim (user mode: the tool takes
    the shape from the launches, __launch_bounds__, or assumes one)."""
    cmd = [tool, "--format=json", "--quiet"] + (
        ["--block-dim=" + block_dim] if block_dim else []) + [tu, "--"] + flags
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return cmd, None, "timed out after %ds" % timeout, -1
    doc = None
    try:
        doc = json.loads(p.stdout) if p.stdout.strip() else None
    except json.JSONDecodeError as e:
        return cmd, None, "bad JSON (%s); stderr: %s" % (e, p.stderr[-500:]), p.returncode
    return cmd, doc, p.stderr, p.returncode


# --------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------

def reason_class(reason):
    """Group a tool reason into a short cause (for the summaries)."""
    r = reason.lower()
    if not r:
        return "(none)"
    if "blockidx" in r and ("<" in r or ">" in r or "guard" in r or "condition" in r):
        return "guard on blockIdx/parameter (unknown)"
    if "loop" in r:
        return "loop counter / loop not enumerated"
    if "load" in r or "memory" in r or "data" in r:
        return "data-dependent (value loaded from memory)"
    if "parameter" in r or "argument" in r:
        return "kernel parameter"
    if "call" in r or "helper" in r or "device function" in r:
        return "helper function / call"
    if "non-linear" in r:
        return "non-linear operation"
    return re.sub(r"'[^']*'", "'_'", reason)[:70]


def generic_reason(reason):
    return re.sub(r"'[^']*'", "'_'", reason)


def eval_threads(block_dim):
    n = 0
    for bd in block_dim.split("|"):
        x, y, z = (int(v) for v in bd.split(","))
        n = max(n, x * y * z)
    return n


def fmt_ratio(w, i):
    if i == 0:
        return "-" if w == 0 else "inf"
    return "%.3f" % (w / i)


def fmt_frac(x):
    """A Fraction as an integer, else as a decimal (not '51/8')."""
    return str(x) if x.denominator == 1 else "%.3f" % float(x)


def pct(a, b):
    return "n/a" if b == 0 else "%.1f%%" % (100.0 * a / b)
