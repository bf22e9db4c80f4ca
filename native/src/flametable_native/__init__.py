"""flametable's rules engines in C++ (issue 26). Used through ``flametable.games.duel.native``, never directly."""
