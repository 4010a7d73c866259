"""Every case the bench can run, in the order the table shows them. A goal in goals.toml with no
case here is listed as not wired yet."""
from bench.cases import boot, host, photos, power, soak, vm


def all_cases():
    return host.CASES + photos.CASES + vm.CASES + boot.CASES + soak.CASES + power.CASES
