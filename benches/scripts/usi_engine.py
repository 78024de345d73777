"""A USI engine driven one command at a time, for the benchmark scripts beside this file."""
import subprocess


class Engine:
    """An engine process: `usi`, the options, `isready`; then commands and their replies."""

    def __init__(self, path, opts):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for o in opts:
            name, _, value = o.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        """The lines up to and including the first that begins with `word`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine closed before '{word}'")
            lines.append(line.strip())
            if line.split()[:1] == [word]:
                return lines

    def bestmove(self, sfen, go):
        """The move the engine plays at `position sfen SFEN` after the `go` command `go`."""
        self.send(f"position sfen {sfen}")
        self.send(go)
        return self.wait("bestmove")[-1].split()[1]

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()
