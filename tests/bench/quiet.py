"""The quiet-machine rule shared by every make bench script: a figure taken when the
1-minute load average was not under LOAD_VOID before it is void (docs/performance.md)."""
import time

LOAD_VOID = 0.3


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "unknown"


def loadavg1():
    try:
        return float(open("/proc/loadavg").read().split()[0])
    except (OSError, ValueError):
        return None


def wait_quiet(limit=600):
    """A bench step (or a build) raises the 1-minute load average for minutes after it
    ends; wait, up to limit seconds, for it to fall under LOAD_VOID, so that a figure is not
    void only because of the step before it. Returns the load average then."""
    waited = 0
    while waited < limit and (loadavg1() or 0.0) >= LOAD_VOID:
        time.sleep(5)
        waited += 5
    if waited:
        print(f"waited {waited} s for the 1-minute load average to fall under {LOAD_VOID}: now {loadavg()}",
              flush=True)
    return loadavg1()


def void_reason(load_before):
    """None when the load average before a figure allows it, else the words that void it."""
    if load_before is not None and load_before >= LOAD_VOID:
        return f"void: load average {load_before:.2f} >= {LOAD_VOID} before the run (it must be under it)"
    return None
