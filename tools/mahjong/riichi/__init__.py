"""The riichi arena's parts (tools/mahjong/README.md, "Riichi arena").

``tiles``   tile notations: riichienv's 136 ids, mpsz with red fives as 0, MJAI names
``table``   one seat's public view of the table, built from the MJAI events it was shown
``greedy``  the documented greedy baseline seat
``service`` the gameai service's seats, with and without the ``table`` message
``danger``  the danger data: one record per discard, with the hidden truth as labels
``stats``   the arena's summary: placements by wall set, rates, decision times
"""
