// Access patterns of one warp for the single-instruction oracles: every lane's
// byte offset a multiple of W, below BufBytes (utils/oracles/*.cu). Each
// generator call draws from its own rng, so an operation's patterns do not
// depend on which other operations a run includes.
#pragma once
#include <cstdio>
#include <random>
#include <vector>

struct Pattern { unsigned mask; unsigned off[32]; const char *kind; };

// Patterns for one width W (bytes): every offset a multiple of W, < BufBytes.
static std::vector<Pattern> patterns(unsigned W, std::mt19937 &rng) {
  std::vector<Pattern> P;
  auto add = [&](const char *kind, unsigned mask, auto f) {
    Pattern p; p.mask = mask; p.kind = kind;
    for (unsigned l = 0; l < 32; ++l) p.off[l] = (f(l) * W) % BufBytes;
    P.push_back(p);
  };
  const unsigned full = 0xffffffffu;
  // constant strides (in elements), base 0 and an odd base
  for (unsigned s = 0; s <= 33; ++s) {
    add("stride", full, [&](unsigned l) { return l * s; });
    add("stride", full, [&](unsigned l) { return 3 + l * s; });
  }
  for (unsigned s : {48u, 64u, 96u, 127u, 128u})
    add("stride", full, [&](unsigned l) { return l * s; });
  // same-address groups of g lanes (consecutive and interleaved), groups g elements apart or 32 words apart
  for (unsigned g : {2u, 4u, 8u, 16u, 32u})
    for (unsigned gap : {1u, 32u * 4 / W, 2u}) {
      add("groups", full, [&](unsigned l) { return (l / g) * gap; });
      add("groups-interleaved", full, [&](unsigned l) { return (l % (32 / g)) * gap; });
    }
  // k distinct words in one bank, each hit by m lanes; the other lanes distinct banks
  for (unsigned k : {1u, 2u, 3u, 4u, 8u})
    for (unsigned m : {1u, 2u, 4u}) {
      if (k * m > 32) continue;
      add("bank-words", full, [&](unsigned l) {
        if (l < k * m) return (l / m) * (128 / W) * 1u;  // bank 0, word (l/m)*32
        return (l * (W == 8 ? 1 : 1)) + 0u;                 // distinct words
      });
    }
  // random addresses in windows, random masks
  for (unsigned win : {128u, 256u, 512u, 1024u, 4096u})
    for (int rep = 0; rep < 30; ++rep) {
      unsigned mask = rep % 3 == 0 ? full : (rep % 3 == 1 ? (unsigned)rng() : (unsigned)rng() & (unsigned)rng());
      if (!mask) mask = 1;
      std::vector<unsigned> v(32);
      for (auto &x : v) x = rng() % (win / W);
      add("random", mask, [&](unsigned l) { return v[l]; });
    }
  // strides with random masks
  for (int rep = 0; rep < 40; ++rep) {
    unsigned s = rng() % 34, mask = (unsigned)rng();
    if (!mask) mask = 1;
    add("stride-mask", mask, [&](unsigned l) { return l * s; });
  }
  // 2-D tile columns: row pitch p elements, lanes walk rows
  for (unsigned p : {8u, 16u, 17u, 32u, 33u, 64u, 65u})
    add("column", full, [&](unsigned l) { return l * p + 1; });
  // few lanes active, same address vs same bank
  for (unsigned n : {1u, 2u, 3u, 5u, 16u}) {
    unsigned mask = n == 32 ? full : ((1u << n) - 1);
    add("few-same", mask, [&](unsigned) { return 7u; });
    add("few-bank", mask, [&](unsigned l) { return l * (128 / W); });
  }
  // random groups sharing addresses: 32 lanes over d distinct addresses in a window
  for (unsigned d : {2u, 3u, 4u, 6u, 8u, 12u, 16u, 24u})
    for (int rep = 0; rep < 5; ++rep) {
      std::vector<unsigned> a(d), v(32);
      for (auto &x : a) x = rng() % (1024 / W);
      for (auto &x : v) x = a[rng() % d];
      add("random-shared", rep % 2 ? full : (unsigned)rng() | 1u, [&](unsigned l) { return v[l]; });
    }
  return P;
}


// The CSV the oracles write: one line per launch, in launch order.
inline void writePatternHeader(FILE *f) {
  fprintf(f, "launch,op,width,kind,mask");
  for (int i = 0; i < 32; ++i) fprintf(f, ",o%d", i);
  fprintf(f, "\n");
}

inline void writePatternRow(FILE *f, unsigned launch, const char *op, unsigned width, const Pattern &p) {
  fprintf(f, "%u,%s,%u,%s,0x%08x", launch, op, width, p.kind, p.mask);
  for (int i = 0; i < 32; ++i) fprintf(f, ",%u", p.off[i]);
  fprintf(f, "\n");
}
