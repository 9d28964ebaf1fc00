"""The source trees bench/coverage.py runs over: where they are, which of their
files count, and the compiler flags each file gets (per HeCBench benchmark,
from its Makefile and CMakeLists.txt)."""
import collections
import glob
import os
import re
import shlex
import sys
import threading

# The built-in trees: checkout directory under --gt-root, the sub-directories
# whose files count (globs, relative to the checkout), and the compiler flags
# ({root} is the checkout). "makefile": per benchmark directory (the glob's
# match), the -D/-I/-std flags of its Makefile's CFLAGS are added (HeCBench).
# "extra": -I flags beyond the issue's, each closing an include-path gap of a
# group of files (a header that is in the checkout but was not found; see
# docs/coverage.md); --no-extra-includes leaves them out.
CCCL_FLAGS = ["-std=c++17", "-I", "{root}/cub", "-I", "{root}/libcudacxx/include",
              "-I", "{root}/thrust", "-I", "{root}/c2h/include"]
TREES = {
    "cuda-samples": {"dir": "cuda-samples", "subdirs": ["."],
                     "flags": ["-std=c++17", "-I", "{root}/Common"],
                     # FDTD3d keeps its headers in inc/ (its CMakeLists.txt adds it)
                     "extra": ["-I", "{root}/Samples/5_Domain_Specific/FDTD3d/inc"]},
    "hecbench": {"dir": "HeCBench", "subdirs": ["src/*-cuda"], "flags": ["-std=c++17"],
                 "makefile": True},
    "llm.c": {"dir": "llm.c", "subdirs": ["dev/cuda"], "flags": ["-std=c++17"]},
    # cub/test/*/ files include cub/test's helpers by name (cub/test/CMakeLists.txt adds it)
    "cccl": {"dir": "cccl", "subdirs": ["cub/examples", "cub/test"], "flags": CCCL_FLAGS,
             "extra": ["-I", "{root}/cub/test"]},
    "cccl-3.0": {"dir": "cccl-3.0", "subdirs": ["cub/examples"], "flags": CCCL_FLAGS},
    # examples 10 and 11 use the CUTLASS library's handle (tools/library/include)
    "cutlass": {"dir": "cutlass", "subdirs": ["examples"],
                "flags": ["-std=c++17", "-I", "{root}/include", "-I", "{root}/tools/util/include",
                          "-I", "{root}/examples/common"],
                "extra": ["-I", "{root}/tools/library/include"]},
}


class Tree:
    def __init__(self, name, root, subdirs, flags, makefile=False, search_root=None):
        self.name, self.root, self.subdirs = name, os.path.abspath(root), subdirs
        self.flags = [f.replace("{root}", self.root) for f in flags]
        self.extra = []  # the part of self.flags that closes include-path gaps
        self.extra_includes = True  # HeCBench: the CMakeLists.txt include directories too
        self.makefile = makefile
        self.search_root = os.path.abspath(search_root or root)
        self._index = None

    def units(self):
        """(file, benchmark dir) for every .cu/.cuh file of the tree's sub-directories."""
        seen = set()
        for s in self.subdirs:
            for base in sorted(glob.glob(os.path.join(self.root, s))):
                if not os.path.isdir(base):
                    continue
                for d, dirs, names in os.walk(base):
                    dirs.sort()
                    for n in sorted(names):
                        p = os.path.normpath(os.path.join(d, n))
                        if n.endswith((".cu", ".cuh")) and p not in seen and os.path.isfile(p):
                            seen.add(p)
                            yield p, os.path.normpath(base)

    def file_flags(self, path, base):
        flags = list(self.flags)
        if self.makefile:
            flags += makefile_flags(base) + (cmake_include_flags(base) if self.extra_includes else [])
        return flags + ["-I", os.path.dirname(path)]

    def find_header(self, header):
        """Paths (relative to the checkout) of files in the tree that an #include of
        `header` would name, given the right -I."""
        if self._index is None:
            self._index = collections.defaultdict(list)
            for d, dirs, names in os.walk(self.search_root):
                dirs[:] = [x for x in dirs if x != ".git"]
                for n in names:
                    self._index[n].append(os.path.relpath(os.path.join(d, n), self.search_root))
        h = os.path.normpath(header.strip("<>\""))
        parts = [x for x in h.split(os.sep) if x not in (".", "..")]
        tail = os.sep.join(parts)
        return [p for p in self._index.get(os.path.basename(h), [])
                if p == tail or p.endswith(os.sep + tail)]


_mk_cache = {}
_mk_lock = threading.Lock()


def makefile_flags(bench_dir):
    """The -D, -I (made absolute) and -std flags of `bench_dir/Makefile`'s CFLAGS
    (NVCCFLAGS or NVCC_FLAGS when its recipe for .cu files names them, not CFLAGS) in
    the branches a plain `make` takes (ifeq/ifdef evaluated with the Makefile's
    own variables); words with $(...) are left out."""
    with _mk_lock:
        if bench_dir in _mk_cache:
            return _mk_cache[bench_dir]
    flags = []
    try:
        with open(os.path.join(bench_dir, "Makefile"), errors="replace") as f:
            text = f.read()
    except OSError:
        text = ""
    text = re.sub(r"\\\r?\n", " ", text)
    env, stack = {}, []  # stack: [active, some branch taken]
    collected = {"CFLAGS": [], "NVCCFLAGS": [], "NVCC_FLAGS": []}

    def expand(s, depth=0):
        if depth > 8:
            return s
        return re.sub(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]",
                      lambda m: expand(env.get(m.group(1), ""), depth + 1), s)

    def cond(line):
        m = re.match(r"(ifeq|ifneq)\s*(.*)$", line)
        if m:
            arg = m.group(2).strip()
            pm = re.match(r"\((.*),(.*)\)$", arg)
            if pm:
                a, b = pm.group(1), pm.group(2)
            else:
                q = re.findall(r"\"([^\"]*)\"|'([^']*)'", arg)
                if len(q) != 2:
                    return False
                a, b = (x[0] or x[1] for x in q)
            eq = expand(a).strip() == expand(b).strip()
            return eq if m.group(1) == "ifeq" else not eq
        m = re.match(r"(ifdef|ifndef)\s+(\S+)", line)
        if m:
            d = bool(expand(env.get(m.group(2), "")).strip())
            return d if m.group(1) == "ifdef" else not d
        return False

    cu_recipe_vars = None  # the flag variables the first recipe for .cu files names
    in_cu_rule = False
    for raw in text.split("\n"):
        if raw.startswith("\t"):
            if in_cu_rule and cu_recipe_vars is None:
                named = set(re.findall(r"\$[({](CFLAGS|NVCCFLAGS|NVCC_FLAGS)[)}]", raw))
                if named:
                    cu_recipe_vars = named
            continue  # recipe
        if raw.strip() and not raw.startswith("#"):
            in_cu_rule = bool(re.match(r"[^=#]*\.cu\b[^=]*:(?!=)|[^=#]*:(?!=)[^=#]*\.cu\b", raw))
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        active = all(s[0] for s in stack)
        if re.match(r"(ifeq|ifneq|ifdef|ifndef)\b", line):
            c = cond(line) if active else False
            stack.append([c, c])
            continue
        if re.match(r"else\b", line) and stack:
            rest = line[4:].strip()
            top = stack[-1]
            outer = all(s[0] for s in stack[:-1])
            c = (cond(rest) if rest else True) if outer else False
            top[0] = c and not top[1]
            top[1] = top[1] or top[0]
            continue
        if re.match(r"endif\b", line) and stack:
            stack.pop()
            continue
        if not active:
            continue
        m = re.match(r"(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(\?=|::=|:=|\+=|=)\s*(.*)$",
                     line)
        if not m:
            continue
        var, op, val = m.groups()
        if var in collected:
            words = val.split()
            if op == "+=":
                collected[var] += words
            elif op != "?=" or not collected[var]:
                collected[var] = words
        if op == "+=":
            env[var] = (env.get(var, "") + " " + val).strip()
        elif op != "?=" or var not in env:
            env[var] = val
    # gerbil compiles its .cu files with $(NVCCFLAGS) (-std=c++17), its host files with
    # $(CFLAGS) (-std=c++11).
    cflags = collected["CFLAGS"]
    if cu_recipe_vars and "CFLAGS" not in cu_recipe_vars:
        cflags = collected["NVCCFLAGS"] or collected["NVCC_FLAGS"] or cflags
    i = 0
    while i < len(cflags):
        w = cflags[i]
        nxt = cflags[i + 1] if i + 1 < len(cflags) else None
        i += 1
        if w in ("-D", "-I") and nxt is not None:
            w, i = w + nxt, i + 1
        if "$(" in w or "${" in w:
            continue
        if w.startswith("-D") and len(w) > 2:
            flags.append(w)
        elif w.startswith("-I") and len(w) > 2:
            flags += ["-I", os.path.normpath(os.path.join(bench_dir, w[2:]))]
        elif w.startswith(("-std=", "--std=")):
            flags.append("-std=" + w.split("=", 1)[1])
    with _mk_lock:
        _mk_cache[bench_dir] = flags
    return flags


def cmake_include_flags(bench_dir):
    """-I for the include directories `bench_dir/CMakeLists.txt` declares (HeCBench:
    add_hecbench_benchmark(... INCLUDE_DIRS ...), target_include_directories,
    include_directories), ${CMAKE_CURRENT_SOURCE_DIR}/${CMAKE_CURRENT_LIST_DIR} and
    set() variables expanded, relative paths taken from bench_dir; words with other
    ${...} (e.g. ${Boost_INCLUDE_DIRS}) are left out."""
    key = ("cmake", bench_dir)
    with _mk_lock:
        if key in _mk_cache:
            return _mk_cache[key]
    try:
        with open(os.path.join(bench_dir, "CMakeLists.txt"), errors="replace") as f:
            text = "\n".join(ln.split("#", 1)[0] for ln in f.read().split("\n"))
    except OSError:
        text = ""
    env = {"CMAKE_CURRENT_SOURCE_DIR": bench_dir, "CMAKE_CURRENT_LIST_DIR": bench_dir}

    def expand(w):
        return re.sub(r"\$\{([A-Za-z_0-9]+)\}", lambda m: env.get(m.group(1), m.group(0)), w)
    dirs = []
    for cmd, args in re.findall(r"\b([A-Za-z_]+)\s*\(([^()]*)\)", text):
        words = [w.strip('"') for w in args.split()]
        cmd = cmd.lower()
        if cmd == "set" and len(words) >= 2:
            env[words[0]] = expand(" ".join(words[1:]))
        elif cmd == "add_hecbench_benchmark" and "INCLUDE_DIRS" in words:
            for w in words[words.index("INCLUDE_DIRS") + 1:]:
                if re.fullmatch(r"[A-Z_]+", w):
                    break  # the next keyword
                dirs.append(w)
        elif cmd in ("target_include_directories", "include_directories"):
            ws = words[1:] if cmd == "target_include_directories" else words
            dirs += [w for w in ws if w not in ("PRIVATE", "PUBLIC", "INTERFACE", "BEFORE", "AFTER", "SYSTEM")]
    flags = []
    for d in dirs:
        d = expand(d)
        if "${" in d or "$<" in d:
            continue
        d = os.path.normpath(os.path.join(bench_dir, d))
        if os.path.isdir(d) and d not in flags:
            flags += ["-I", d]
    with _mk_lock:
        _mk_cache[key] = flags
    return flags


def parse_tree_spec(spec, gt_root, flag_map, extra_map, default_flags, extra_includes=True):
    """`NAME` (built-in, under --gt-root) or `NAME=ROOT[:SUBDIR,...]`."""
    name, _, rest = spec.partition("=")
    known = TREES.get(name)
    if not rest:
        if not known:
            sys.exit("coverage.py: unknown tree '%s' (known: %s; or NAME=ROOT[:SUBDIR,...])"
                     % (name, ", ".join(TREES)))
        if not gt_root:
            sys.exit("coverage.py: --tree %s needs --gt-root" % name)
        root, subdirs = os.path.join(gt_root, known["dir"]), None
    else:
        root, _, subs = rest.partition(":")
        subdirs = [s for s in subs.split(",") if s] or None
    subdirs = subdirs or (known["subdirs"] if known else ["."])
    flags = shlex.split(flag_map[name]) if name in flag_map else (known["flags"] if known else default_flags)
    extra = known.get("extra", []) if known and extra_includes and name not in flag_map else []
    flags = flags + extra + shlex.split(extra_map.get(name, ""))
    if not os.path.isdir(root):
        sys.exit("coverage.py: tree '%s': no directory %s" % (name, root))
    t = Tree(name, root, subdirs, flags, makefile=bool(known and known.get("makefile")))
    t.extra = [f.replace("{root}", t.root) for f in extra]
    t.extra_includes = extra_includes
    return t


# ---------------------------------------------------------------- one file
