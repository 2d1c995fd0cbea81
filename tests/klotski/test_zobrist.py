from tilegames.klotski import LAYOUTS, Board, zobrist
from tilegames.klotski.space import board_from_key, reachable


def test_keys_are_fixed_and_distinct():
    assert len(zobrist.KEYS) == 400 and len(set(zobrist.KEYS)) == 400
    assert zobrist.KEYS[0] == 0x9DCFCA9701F95960  # the table never changes between runs or machines
    assert zobrist.key(0, 0, 1) == zobrist.KEYS[0]


def test_hash_ignores_letters_and_mirror_hash_meets_the_mirror():
    board = Board.parse("ABBC/ABBC/DEEF/DGHF/IJ..")
    assert board.zobrist_hash() == Board.parse("CBBA/CBBA/FEED/FHGD/JI..").zobrist_hash()
    assert board.mirror_hash() == board.mirror().zobrist_hash()
    assert board.zobrist_hash() != board.mirror_hash()


def test_64_bit_keys_separate_all_25955_positions_and_15_bit_keys_do_not():
    grids = [board_from_key(int(k), 4, 5).types() for k in reachable(LAYOUTS["横刀立马"])]
    assert zobrist.count_collisions(grids, 4) == (25955, 0)
    positions, collisions = zobrist.count_collisions(grids, 4, zobrist.small_keys(15))
    assert positions == 25955 and collisions > 5000
