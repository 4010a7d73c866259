"""Every case the bench can run, in the order the table shows them. VM and Wayland cases are
listed in goals.toml before they are wired; add their Case lists here when they are."""
from bench.cases import host, photos, vm


def all_cases():
    return host.CASES + photos.CASES + vm.CASES
