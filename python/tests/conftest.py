# SPDX-License-Identifier: MIT
"""Shared fixtures: the SDK sample folder (VTXSCOPE_SAMPLES; missing → skip, except with
CI=true, where it fails) and vtxscope-cli (VTXSCOPE_CLI, set by CTest)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def samples_dir() -> Path:
    return Path(os.environ.get("VTXSCOPE_SAMPLES", ROOT.parent / "shared" / "samples"))


SAMPLE_NAMES = ["arena_from_fbs_ds.vtx", "arena_from_proto_ds.vtx", "allkinds_fbs.vtx", "allkinds_proto.vtx",
                "sdk_cs_fbs.vtx", "sdk_cs_proto.vtx", "sdk_rl_fbs.vtx", "sdk_rl_proto.vtx"]


def sample(name: str) -> Path:
    p = samples_dir() / name
    if not p.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"SDK sample {p} missing (CI=true: samples are required)")
        pytest.skip(f"SDK samples not found in {samples_dir()} (set VTXSCOPE_SAMPLES)")
    return p


def cli() -> str:
    c = os.environ.get("VTXSCOPE_CLI") or shutil.which("vtxscope-cli")
    if not c:
        pytest.skip("vtxscope-cli not found (CTest sets VTXSCOPE_CLI)")
    return c


def cli_json(*args) -> dict:
    out = subprocess.run([cli(), *map(str, args)], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def generate(kind: str, out: Path, backend: str, frames: int, seed: int = 1) -> Path:
    subprocess.run([cli(), "generate", kind, str(out), "--backend", backend, "--frames", str(frames), "--seed", str(seed)],
                   check=True, capture_output=True)
    return out
