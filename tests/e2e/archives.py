"""Archive helpers for the end-to-end suite: building tar(.gz) seeds, the
notebook's sample archive, and reading dumps back."""

from __future__ import annotations

import io
import json
import tarfile
from typing import Iterable

def make_tar(entries: Iterable, gz: bool = True) -> bytes:
    """Builds a tar(.gz) from entries.

    An entry is either (name, bytes) for a regular file (mode 0644), or a
    (tarfile.TarInfo, bytes | None) pair for full control (links, devices...).
    """
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz" if gz else "w", format=tarfile.PAX_FORMAT) as tar:
        for entry in entries:
            if isinstance(entry[0], tarfile.TarInfo):
                info, data = entry
                if data is not None:
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
                else:
                    tar.addfile(info)
            else:
                name, data = entry
                info = tarfile.TarInfo(name=name)
                info.size = len(data)
                info.mode = 0o644
                info.mtime = 1_700_000_000
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def tinfo(name: str, type_=tarfile.REGTYPE, mode: int = 0o644, linkname: str = "", **kw) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name=name)
    info.type = type_
    info.mode = mode
    info.linkname = linkname
    info.mtime = 1_700_000_000
    for k, v in kw.items():
        setattr(info, k, v)
    return info


def notebook_archive() -> bytes:
    """Exactly the notebook's archive (hello.txt, notes.md, config.json)."""
    files = {
        "hello.txt": "Hello from Klavis Local Sandbox!",
        "notes.md": "# Notes\n- item 1\n- item 2",
        "config.json": '{"app": "demo", "version": "1.0"}',
    }
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, content in files.items():
            data = content.encode()
            info = tarfile.TarInfo(name=name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def read_tar(data: bytes) -> list[dict]:
    """Members of a tar.gz as comparable dicts (mtime left out)."""
    out = []
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for m in tar.getmembers():
            item = {"name": m.name, "type": m.type, "mode": m.mode, "size": m.size}
            if m.isfile():
                item["data"] = tar.extractfile(m).read()
            if m.issym() or m.islnk():
                item["linkname"] = m.linkname
            out.append(item)
    return out


def tar_names(data: bytes) -> list[str]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return tar.getnames()


def tar_files(data: bytes) -> dict[str, bytes]:
    """{member name: content} for the regular files of a tar.gz."""
    out = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for m in tar.getmembers():
            if m.isfile():
                out[m.name] = tar.extractfile(m).read()
    return out
