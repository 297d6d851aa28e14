# SPDX-License-Identifier: MIT
"""vtxscope.open / frame / info / query / diff / errors against vtxscope-cli on the SDK samples."""

import json
import math
import random
import subprocess

import numpy as np
import pytest

import vtxscope
from conftest import SAMPLE_NAMES, cli, cli_json, sample


def _num_equal(a, j) -> bool:
    """A Python float from the module against the CLI's JSON number (float32 printed shortest)."""
    if isinstance(j, str):  # "nan", "inf", "-inf"
        return isinstance(a, float) and (math.isnan(a) if j == "nan" else a == float(j))
    if isinstance(j, bool) or isinstance(a, bool):
        return a is j or a == j
    if isinstance(j, int) and isinstance(a, int):
        return a == j
    a, j = float(a), float(j)
    if a == j:
        return True
    return bool(np.float32(a) == np.float32(j)) and abs(a - j) <= 1e-6 * max(abs(a), abs(j))


def same(a, j, where="") -> None:
    """Asserts that a module value equals the CLI's JSON rendering of it."""
    if isinstance(a, vtxscope.Struct):
        assert isinstance(j, dict) and "properties" in j, where
        assert a.type_name == j["type_name"], where
        same_props(a, j, where)
    elif isinstance(a, vtxscope.Transform):
        for k in ("translation", "rotation", "scale"):
            same(getattr(a, k), j[k], f"{where}.{k}")
    elif isinstance(a, vtxscope.Range):
        for k in ("min", "max", "value_normalized"):
            assert _num_equal(getattr(a, k), j[k]), f"{where}.{k}"
    elif isinstance(a, (vtxscope.Vec3, vtxscope.Quat)):
        assert len(a) == len(j), where
        for x, y in zip(a, j):
            assert _num_equal(x, y), f"{where}: {a} vs {j}"
    elif isinstance(a, bytes):
        assert j["length"] == len(a) and j["hex"] == a.hex(), where
    elif isinstance(a, list):
        assert isinstance(j, list) and len(a) == len(j), where
        for i, (x, y) in enumerate(zip(a, j)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert isinstance(j, dict) and list(a) == list(j), where
        for k in a:
            same(a[k], j[k], f"{where}[{k}]")
    elif a is None:
        assert j is None, where
    elif isinstance(a, str):
        assert a == j, where
    else:
        assert _num_equal(a, j), f"{where}: {a!r} vs {j!r}"


def same_props(a: vtxscope.Struct, j: dict, where: str) -> None:
    assert list(a.properties) == list(j["properties"]), where
    for k, v in a.properties.items():
        same(v, j["properties"][k], f"{where}.{k}")
    ju = j.get("unnamed", {})
    assert sorted(a.unnamed) == sorted(ju), f"{where}: unnamed members"
    for member, slots in a.unnamed.items():
        assert sorted(str(s) for s in slots) == sorted(ju[member]), f"{where}: unnamed {member}"
        for slot, v in slots.items():
            jv = ju[member][str(slot)]
            if isinstance(v, bytes):
                assert isinstance(v, bytes) and jv["length"] == len(v) and jv["hex"] == v.hex()
                if "blob_of" in jv:
                    assert a.blobs[jv["blob_of"]] == v
            else:
                same(v, jv, f"{where}.unnamed.{member}[{slot}]")


def check_frame(path, r: vtxscope.Replay, n: int) -> None:
    f = r.frame(n)
    j = cli_json("frame", path, n)
    assert f.index == j["frame"] and f.game_time_ticks == j["game_time"] and f.created_utc_ticks == j["created_utc"]
    assert f.integrity == j["integrity"]
    assert len(f.buckets) == len(j["buckets"])
    for b, jb in zip(f.buckets, j["buckets"]):
        assert b.name == jb["name"] and len(b.entities) == jb["entity_count"]
        for e, je in zip(b.entities, jb["entities"]):
            where = f"{path.name} frame {n} {e.unique_id}"
            assert e.unique_id == je["unique_id"] and e.type_name == je["type_name"] and e.type_id == je["type_id"]
            assert f"{e.content_hash:016x}" == je["content_hash"], where
            same_props(e, je, where)
            jd = je.get("damaged", [])
            assert [(d["path"], f"{d['stored_hash']:016x}", d["reason"]) for d in e.damaged] == \
                   [(d["path"], d["stored_hash"], d["reason"]) for d in jd], where


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_frame_equals_cli(name):
    path = sample(name)
    with vtxscope.open(path) as r:
        frames = {0, len(r) - 1}
        for first, last in r.chunks:
            frames |= {first, last}
        rng = random.Random(27)
        frames |= {rng.randrange(len(r)) for _ in range(3)}
        for n in sorted(frames):
            check_frame(path, r, n)


def test_paths_display_name_bytes():
    with vtxscope.open(sample("sdk_cs_fbs.vtx")) as r:
        f = r.frame(0)
        players = [e for e in f if e.type_name == "Player"]
        assert players
        p = players[0]
        nf = r.schema["types"]["Player"]["display_name_field"]
        assert nf is not None and p.display_name == p[nf]
        # nested paths as the inspector writes them
        for e in f:
            for k, v in e.properties.items():
                if isinstance(v, vtxscope.Struct) and v.properties:
                    sub = next(iter(v.properties))
                    assert e[f"{k}.{sub}"] == v.properties[sub]
                if isinstance(v, list) and v:
                    assert e[f"{k}[0]"] == v[0]
        bones = [e for e in f if e.unnamed.get("byte_array_properties")]
        assert bones, "the CS-like sample stores bone payloads as unnamed bytes"
        b = next(iter(bones[0].unnamed["byte_array_properties"].values()))
        assert isinstance(b, bytes) and len(b) > 0
        with pytest.raises(KeyError):
            p["NoSuchProperty"]
    with vtxscope.open(sample("allkinds_fbs.vtx")) as r:
        f = r.frame(450)
        maps = [(e, k, v) for e in f for k, v in e.properties.items() if isinstance(v, dict) and v]
        assert maps, "allkinds has struct maps"
        e, k, v = maps[0]
        key = next(iter(v))
        inner = next(iter(v[key].properties))
        assert e[f"{k}[{key}].{inner}"] == v[key].properties[inner]


@pytest.mark.parametrize("name", ["arena_from_fbs_ds.vtx", "sdk_rl_proto.vtx"])
def test_info_times_schema(name):
    path = sample(name)
    j = cli_json("info", path)
    with vtxscope.open(path) as r:
        assert r.info == j
        assert len(r) == j["footer"]["total_frames"] if "footer" in j else len(r) > 0
        t = r.times
        assert t.game_time.dtype == np.float64 and len(t.game_time) == len(r)
        assert np.all(np.diff(t.game_ticks) >= 0)
        assert t.utc.dtype == np.dtype("datetime64[ns]")
        assert t.utc[0] > np.datetime64("2000-01-01")
        assert set(r.schema["types"]) == {s["name"] for s in j["schema"]["structs"]} if "structs" in j.get("schema", {}) else r.schema["types"]
        assert isinstance(r.events, list) and isinstance(r.problems, list)
        assert r.hash_trust == j["hash_trust"]


def test_query_and_diff_equal_cli():
    path = sample("arena_from_fbs_ds.vtx")
    with vtxscope.open(path) as r:
        assert r.query("Health < 50") == cli_json("query", path, "Health < 50", "--json")
        assert r.query("any(Health < 10)", 100, 900) == cli_json("query", path, "any(Health < 10)", "--from", 100, "--to", 900, "--json")
        assert r.diff(0, len(r) - 1, epsilon=0.01) == cli_json("diff", path, 0, "last", "--json", "--epsilon", 0.01)


def test_validate_equals_cli():
    # Types by name, as vtxscope-cli validate prints them (issue 26 8i), not by number.
    path = sample("sdk_cs_fbs.vtx")
    with vtxscope.open(path) as r:
        v = r.validate()
    assert v == cli_json("validate", path)
    assert "Player" in v["entities_per_type_total"] and "Player" in v["hash_variants_per_type"]
    assert all(not k.isdigit() for k in v["entities_per_type_total"])


def test_diverge_equals_cli(tmp_path):
    a, b = sample("sdk_cs_fbs.vtx"), sample("sdk_cs_proto.vtx")
    import subprocess, json
    from conftest import cli
    out = subprocess.run([cli(), "diverge", str(a), str(b), "--json", "--epsilon", "1e-4"], capture_output=True, text=True)
    assert out.returncode in (0, 1)
    assert vtxscope.diverge(a, b, epsilon=1e-4) == json.loads(out.stdout)


@pytest.mark.parametrize("name, expr", [("arena_from_fbs_ds.vtx", "changed(Health) || Health < 30"),
                                        ("sdk_cs_proto.vtx", "changed(Health) || Health < 30"),
                                        ("sdk_rl_fbs.vtx", "changed(MatchScore)"),
                                        ("sdk_rl_proto.vtx", "changed(MatchScore)")])
def test_scan_threads_give_the_same_answers(name, expr):
    """query, validate and diverge through the scan engine with 1, 2 and 3 decode threads: who
    decodes changes, the answers do not (the CLI's, with the default 2, is held above)."""
    path = sample(name)
    with vtxscope.open(path) as r:
        queries = [r.query(expr, threads=t) for t in (1, 2, 3)]
        validations = [r.validate(threads=t) for t in (1, 2, 3)]
    assert queries[0]["frames"] and queries[0] == queries[1] == queries[2]
    assert validations[0]["chunks_checked"] > 1 and validations[0] == validations[1] == validations[2]
    other = sample(name.replace("fbs", "PROTO").replace("proto", "fbs").replace("PROTO", "proto"))  # the other backend
    reports = [vtxscope.diverge(path, other, epsilon=1e-4, threads=t) for t in (1, 2, 3)]
    assert reports[0]["pairs_compared"] > 0 and reports[0] == reports[1] == reports[2]
    for bad in (0, -1, 65, 2.0, True, "2"):
        with pytest.raises(vtxscope.ArgumentError):
            vtxscope.open(path).query(expr, threads=bad)
        with pytest.raises(vtxscope.ArgumentError):
            vtxscope.diverge(path, other, threads=bad)


def test_diverge_skip_unreadable_equals_cli(tmp_path):
    """A chunk that cannot be read (review 5, #4): an error by default; with skip_unreadable its
    pairs are listed and the rest compared, as vtxscope-cli diverge --skip-unreadable says."""
    good = sample("sdk_rl_fbs.vtx")
    src = bytearray(good.read_bytes())
    chunk = cli_json("info", good)["chunks"][1]
    for i in range(chunk["file_offset"] + 40, chunk["file_offset"] + chunk["chunk_size_bytes"], 5):
        src[i] ^= 0x5A
    p = tmp_path / "damaged.vtx"
    p.write_bytes(bytes(src))
    with pytest.raises(vtxscope.ReadError):
        vtxscope.diverge(good, p)
    report = vtxscope.diverge(good, p, skip_unreadable=True)
    out = subprocess.run([cli(), "diverge", str(good), str(p), "--json", "--skip-unreadable"], capture_output=True, text=True)
    assert out.returncode == 2  # not every pair was compared
    assert report == json.loads(out.stdout)
    assert report["pairs_unreadable"] == chunk["end_frame"] - chunk["start_frame"] + 1
    assert report["pairs_compared"] + report["pairs_unreadable"] == 2400
    assert not report["diverged"]
    run = report["unreadable"][0]
    assert run["first"]["frame_a"] == chunk["start_frame"] and run["last"]["frame_a"] == chunk["end_frame"]
    assert "damaged.vtx" in run["reason"]


def test_frame_from_a_damaged_chunk_equals_cli(tmp_path):
    """Noise in a zstd chunk (review 5, #3): a frame that still parses says its chunk is damaged,
    as vtxscope-cli frame does; the first unreadable frame is an error in both."""
    src = bytearray(sample("sdk_cs_proto.vtx").read_bytes())
    rnd = random.Random(5)
    for i in range(1_200_000, 1_200_000 + 4096):  # inside chunk 0 (frames 0-383)
        src[i] = rnd.randrange(256)
    p = tmp_path / "noisy.vtx"
    p.write_bytes(bytes(src))
    with vtxscope.open(p) as r:
        f = r.frame(100)
        j = cli_json("frame", p, 100)
        assert f.integrity == j["integrity"]
        damage = f.integrity["chunk_damage"]
        assert damage is not None and damage["chunk"] == 0 and damage["later_frames_lost"]
        first = damage["first_unreadable_frame"]
        assert 100 < first <= 383
        with pytest.raises(vtxscope.ReadError):
            r.frame(first)
        assert subprocess.run([cli(), "frame", str(p), str(first)], capture_output=True).returncode == 1


@pytest.mark.parametrize("name", ["arena_from_fbs_ds.vtx", "sdk_rl_proto.vtx"])
def test_a_replay_without_frames_says_so(tmp_path, name):
    """A recording cut before its first chunk opens (recovered) with no frames; asking for one
    says the file has none, not "out of range (0..-1)", from the Python and the C++ checks."""
    src = sample(name).read_bytes()
    p = tmp_path / "no_frames.vtx"
    p.write_bytes(src[:len(src) // 50])
    with vtxscope.open(p) as r:
        assert len(r) == 0 and r.is_recovered
        for call in (lambda: r.frame(0), lambda: r.frame(-1), lambda: r.table("Player", frames=[0]),
                     lambda: r._r.frame(0), lambda: r._r.diff(0, 0, 0.0, 0.0, [], True)):
            with pytest.raises(vtxscope.OutOfRangeError) as e:
                call()
            assert str(e.value).endswith("out of range: the file has no frames"), str(e.value)
            assert "0..-1" not in str(e.value)
    with vtxscope.open(sample(name)) as r:
        with pytest.raises(vtxscope.OutOfRangeError) as e:
            r.frame(len(r))
        assert f"out of range (0..{len(r) - 1})" in str(e.value)


@pytest.mark.parametrize("name", ["arena_from_fbs_ds.vtx", "sdk_rl_proto.vtx"])
def test_a_file_without_its_times_says_none_not_zero(tmp_path, name):
    """A recording cut before its footer (recovered) lost its frames' times: a frame's times are
    None, as null in the CLI's JSON, and a table's game_time NaN, not 0 (frame 0's genuine time)."""
    src = sample(name).read_bytes()
    p = tmp_path / "cut.vtx"
    p.write_bytes(src[:len(src) * 3 // 4])
    with vtxscope.open(p) as r:
        assert r.is_recovered and len(r) > 1
        for n in (0, len(r) - 1):
            f = r.frame(n)
            assert f.game_time_ticks is None and f.created_utc_ticks is None and f.game_time is None
            j = cli_json("frame", p, n)
            assert j["game_time"] is None and j["created_utc"] is None
        type_name = next(iter(r.schema["types"]))
        assert np.isnan(r.table(type_name, [], frames=[0, 1])["game_time"]).all()
    with vtxscope.open(sample(name)) as r:
        f = r.frame(len(r) - 1)
        assert isinstance(f.game_time_ticks, int) and f.game_time == f.game_time_ticks / 1e7
        assert f.game_time_ticks == cli_json("frame", sample(name), len(r) - 1)["game_time"]


def test_errors_carry_codes(tmp_path):
    missing = tmp_path / "missing.vtx"
    with pytest.raises(vtxscope.ReadError) as e:
        vtxscope.open(missing)
    assert e.value.code == "failed" and e.value.path == str(missing) and isinstance(e.value, vtxscope.Error)

    junk = tmp_path / "junk.vtx"
    junk.write_bytes(bytes(random.Random(1).randrange(256) for _ in range(5000)))
    with pytest.raises(vtxscope.ReadError) as e:
        vtxscope.open(junk)
    assert e.value.code == "failed" and e.value.path == str(junk)

    # A chunk whose bytes are damaged: the error names the chunk, its offset and the frame.
    src = sample("arena_from_fbs_ds.vtx").read_bytes()
    with vtxscope.open(sample("arena_from_fbs_ds.vtx")) as r:
        first, last = r.chunks[2]
        offset = r.info["chunks"][2]["file_offset"]
    if True:
        bad = bytearray(src)
        for i in range(offset + 64, offset + 4096):
            bad[i] ^= 0x5A
        p = tmp_path / "damaged.vtx"
        p.write_bytes(bytes(bad))
        with vtxscope.open(p) as r:
            with pytest.raises(vtxscope.ReadError) as e:
                r.frame(first + 1)
            assert e.value.chunk == 2 and e.value.offset == offset and e.value.frame == first + 1 and e.value.path == str(p)
            with pytest.raises(vtxscope.ReadError) as e:
                r.table("Player", ["Health"])
            assert e.value.chunk == 2 and e.value.offset == offset
            t = r.table("Player", ["Health"], errors="skip")
            assert t.problems and t.problems[0]["chunk"] == 2
            assert not np.any((t["frame"] >= first) & (t["frame"] <= last))

    with vtxscope.open(sample("arena_from_fbs_ds.vtx")) as r:
        with pytest.raises(vtxscope.OutOfRangeError) as e:
            r.frame(len(r))
        assert e.value.code == "out_of_range" and isinstance(e.value, IndexError)
        assert r.frame(-1).index == len(r) - 1
        with pytest.raises(vtxscope.ExpressionError) as e:
            r.query("Helth < 5")
        assert e.value.code == "bad_expression" and e.value.column == 0 and e.value.suggestion == "Health"
        with pytest.raises(vtxscope.ExpressionError):
            r.table("Player", where="Health <")
        with pytest.raises(vtxscope.UnknownNameError) as e:
            r.table("Playr")
        assert e.value.code == "unknown_name" and e.value.suggestion == "Player"
        with pytest.raises(vtxscope.UnknownNameError):
            r.table("Player", ["Helth"])
        with pytest.raises(vtxscope.OutOfRangeError):
            r.table("Player", frames=[0, len(r)])
        with pytest.raises(vtxscope.ArgumentError):
            r.table("Player", step=0)
        with pytest.raises(vtxscope.ArgumentError):
            r.table("Player", frames="abc")
        with pytest.raises(vtxscope.ArgumentError):
            vtxscope.open(sample("arena_from_fbs_ds.vtx"), budget_mb=-1)
    r.close()
    with pytest.raises(vtxscope.ArgumentError):
        r.frame(0)
    import pickle
    err = pickle.loads(pickle.dumps(e.value))
    assert err.code == e.value.code and err.message == e.value.message
