# SPDX-License-Identifier: MIT
"""What the Python benchmarks print about the host they ran on (hosts differ: memory bandwidth
varies 3x between the AMD and Intel hosts this project runs on)."""
import platform


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, or what platform knows."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"
