# Prints the atomic records of a cuda-bank-lint JSON report, one per line.
import json, sys
for a in json.load(sys.stdin)["accesses"]:
    if a["op"] == "atom":
        print("%d atom iterations=%d load=%d/%d block-load=%d/%d status=%s" % (
            a["line"], a["iterations"], a["loop_load_wavefronts"], a["loop_load_ideal"],
            a["block_loop_load_wavefronts"], a["block_loop_load_ideal"], a["status"]))
