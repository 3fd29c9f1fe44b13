"""The files the composer's "@" offers (`core.views.workspace_files`): git's view of a work
tree (untracked files too, .gitignore honoured), a walk elsewhere (hidden and dependency
folders skipped), bounded in count."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cherry_desktop.core.views.workspace_files import list_workspace_files


def _tree(root: Path) -> None:
    for name in ("src/app.py", "src/util/helpers.py", "README.md", "build/out.bin", "node_modules/x/index.js",
                 ".hidden/secret.txt"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x")


async def test_a_git_work_tree_lists_tracked_and_untracked_files_but_not_ignored_ones(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / ".gitignore").write_text("build/\nnode_modules/\n")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "src/app.py"], check=True)
    files = await list_workspace_files(tmp_path)
    assert sorted(files) == [".gitignore", ".hidden/secret.txt", "README.md", "src/app.py", "src/util/helpers.py"]


async def test_a_plain_folder_is_walked_without_hidden_and_dependency_folders(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert sorted(await list_workspace_files(tmp_path)) == ["README.md", "src/app.py", "src/util/helpers.py"]
    assert len(await list_workspace_files(tmp_path, limit=2)) == 2
    assert await list_workspace_files(tmp_path / "missing") == []
