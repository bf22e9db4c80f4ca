"""A minimal PEP 517 build backend (standard library only) for the test plug-in: a wheel of ``src/*`` with the
metadata and entry points of ``pyproject.toml``, so that pip installs it as any distribution."""

from __future__ import annotations

import base64
import hashlib
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project


def _dist_name(project: dict[str, Any]) -> str:
    return f"{project['name'].replace('-', '_')}-{project['version']}"


def _metadata(project: dict[str, Any]) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}",
             f"Summary: {project.get('description', '')}", f"Requires-Python: {project.get('requires-python', '')}"]
    lines += [f"Requires-Dist: {dep}" for dep in project.get("dependencies", [])]
    return "\n".join(lines) + "\n"


def _entry_points(project: dict[str, Any]) -> str:
    out = []
    for group, points in project.get("entry-points", {}).items():
        out.append(f"[{group}]")
        out += [f"{name} = {value}" for name, value in points.items()]
        out.append("")
    return "\n".join(out)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _sources() -> list[Path]:
    """The package's files: its modules and its browser client's (``static``)."""
    return [*(ROOT / "src").rglob("*.py"), *(p for p in (ROOT / "src").rglob("static/*") if p.is_file())]


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: Any = None) -> list[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    project = _project()
    dist = _dist_name(project)
    filename = f"{dist}-py3-none-any.whl"
    files: dict[str, bytes] = {}
    for path in sorted(_sources()):
        files[path.relative_to(ROOT / "src").as_posix()] = path.read_bytes()
    info = f"{dist}.dist-info"
    files[f"{info}/METADATA"] = _metadata(project).encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: build_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/entry_points.txt"] = _entry_points(project).encode()
    record = [_record_line(name, data) for name, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(Path(wheel_directory) / filename, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
    return filename


def build_sdist(sdist_directory: str, config_settings: Any = None) -> str:
    dist = _dist_name(_project())
    filename = f"{dist}.tar.gz"
    with tarfile.open(Path(sdist_directory) / filename, "w:gz") as sdist:
        for path in [ROOT / "pyproject.toml", ROOT / "build_backend.py", *sorted(_sources())]:
            sdist.add(path, f"{dist}/{path.relative_to(ROOT).as_posix()}")
    return filename
