"""Counts of onnx's BackendTest under pytest (from a --junitxml file) as the
"Python: onnx BackendTest" section of docs/conformance.md.

    python backend_report.py build-py-venv/pytest-junit.xml docs/conformance.md

oinfer-conformance writes the rest of that file and keeps this section (from
MARKER to the end) when it rewrites it. Prints the table too.
"""

import re
import sys
import xml.etree.ElementTree as ET

MARKER = "<!-- python-backend-test: written by python/tests/backend_report.py -->"

SUITES = [
    ("OnnxBackendNodeModelTest", "node"),
    ("OnnxBackendPyTorchConvertedModelTest", "pytorch-converted"),
    ("OnnxBackendPyTorchOperatorModelTest", "pytorch-operator"),
    ("OnnxBackendSimpleModelTest", "simple"),
    ("OnnxBackendRealModelTest", "real"),
]


def counts(junit_path):
    tree = ET.parse(junit_path)
    table = {}
    failed = []
    xfailed = []
    skipped_names = []
    for case in tree.iter("testcase"):
        cls = case.get("classname", "").rsplit(".", 1)[-1]
        name = case.get("name", "")
        if not name.endswith("_cpu"):
            continue
        suite = dict(SUITES).get(cls)
        if suite is None:
            continue
        row = table.setdefault(suite, {"pass": 0, "fail": 0, "xfail": 0, "skip": 0})
        skipped = case.find("skipped")
        if case.find("failure") is not None or case.find("error") is not None:
            row["fail"] += 1
            failed.append(f"{suite}/{name[:-4]}")
        elif skipped is not None:
            if (skipped.get("type") or "").endswith("xfail"):
                row["xfail"] += 1
                xfailed.append(f"{suite}/{name[:-4]}")
            else:
                row["skip"] += 1
                skipped_names.append(f"{suite}/{name[:-4]}")
        else:
            row["pass"] += 1
    return table, failed, xfailed, skipped_names


def known_failures(which="KNOWN_FAILURES"):
    """KNOWN_FAILURES (or EXCLUDED) of test_backend_onnx.py: {pattern: reason}."""
    import importlib.util
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("_bt", os.path.join(here, "test_backend_onnx.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, which)


def section(table, failed, xfailed=(), runner_node=None, skipped=()):
    lines = [
        MARKER,
        "",
        "## Python: onnx BackendTest",
        "",
        "onnx 1.22.0's own runner, `onnx.backend.test.BackendTest(oinfer.backend, __name__)`, "
        "under pytest (`python/tests/test_backend_onnx.py`, run by `scripts/test_python.sh`; "
        "`scripts/test_python.sh --update-docs` rewrites this section). CPU cases only (the CUDA "
        "copies skip in a CPU build). It counts differently from the table above: every case of "
        "the suite is a test (no exclusion of other domains or of sequence / optional inputs, "
        "which the Python path feeds as lists and None), its tolerance is the suite's own "
        "(rtol 1e-3, atol 1e-7, no per-case tolerances), and random ops are compared exactly; "
        "*xfail* are the cases `KNOWN_FAILURES` in the test file lists with the reason, *skip* "
        "those it excludes (`EXCLUDED`).",
        "",
        "| suite | cases | pass | fail | xfail (listed) | excluded |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    total = {"pass": 0, "fail": 0, "xfail": 0, "skip": 0}
    for _, suite in SUITES:
        row = table.get(suite)
        if not row:
            continue
        n = sum(row.values())
        lines.append(f"| {suite} | {n} | {row['pass']} | {row['fail']} | {row['xfail']} | {row['skip']} |")
        for k in total:
            total[k] += row[k]
    n = sum(total.values())
    lines.append(f"| **all** | {n} | {total['pass']} | {total['fail']} | {total['xfail']} | {total['skip']} |")
    if failed:
        lines += ["", "Failing: " + ", ".join(sorted(failed))]
    node = table.get("node")
    if runner_node and node:
        passed, counted = runner_node
        lines += [
            "",
            f"Node suite, compared: oinfer-conformance passes {passed} of the {counted} cases it "
            f"counts; BackendTest passes {node['pass']} of {sum(node.values())}: the cases the C++ runner "
            "leaves out (other domains, sequence or optional inputs and outputs) are run here, "
            "and those of other domains fail as unsupported.",
        ]
    for title, which, names_of in (("Listed failures (`KNOWN_FAILURES`)", "KNOWN_FAILURES", xfailed),
                                   ("Excluded (`EXCLUDED`)", "EXCLUDED", skipped)):
        if not names_of:
            continue
        lines += ["", f"{title}, with their reasons:", ""]
        for pattern, why in known_failures(which).items():
            hits = sorted(n for n in names_of if re.search(pattern, n.split("/", 1)[1] + "_cpu"))
            if hits:
                names = ", ".join(h.split("/", 1)[1] for h in hits)
                lines.append(f"- {why} ({len(hits)}: {names})")
    return "\n".join(lines) + "\n"


def main():
    junit, md = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
    table, failed, xfailed, skipped = counts(junit)
    runner_node = None
    doc = ""
    if md:
        with open(md) as f:
            doc = f.read()
        m = re.search(r"^\| node \| (\d+) \| (\d+) ", doc, re.M)
        if m:
            runner_node = (int(m.group(2)), int(m.group(1)))
    text = section(table, failed, xfailed, runner_node, skipped)
    print(text)
    if md:
        doc = re.split(re.escape(MARKER), doc)[0].rstrip("\n") + "\n\n"
        with open(md, "w") as f:
            f.write(doc + text)


if __name__ == "__main__":
    main()
