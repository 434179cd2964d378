"""The bots' anchors, measured by the arena (scripts/ratings_anchors.py says how),
written by ``python scripts/ratings_anchors.py --deals 1000 --seed 1 --write``; not edited by hand."""

from typing import Any, Final

TABLE: Final = ('random', 'greedy', 'heuristic', 'heuristic')
MEASURED: Final[dict[str, dict[str, Any]]] = {'southern': {'preset': 'mien-nam',
              'deals': 1000,
              'seed': 1,
              'hands': 4000,
              'anchors': {'random': (15.367, 0.182),
                          'greedy': (28.373, 0.144),
                          'heuristic': (31.26, 0.133)},
              'first_rate': {'random': 0.0227, 'greedy': 0.2552, 'heuristic': 0.361}},
 'northern': {'preset': 'mien-bac',
              'deals': 1000,
              'seed': 1,
              'hands': 4000,
              'anchors': {'random': (18.342, 0.153),
                          'greedy': (27.951, 0.136),
                          'heuristic': (28.708, 0.119)},
              'first_rate': {'random': 0.0467, 'greedy': 0.2973, 'heuristic': 0.328}},
 'published': {'preset': 'pagat',
               'deals': 1000,
               'seed': 1,
               'hands': 4000,
               'anchors': {'random': (14.177, 0.197),
                           'greedy': (29.176, 0.15),
                           'heuristic': (31.647, 0.138)},
               'first_rate': {'random': 0.0138, 'greedy': 0.2802, 'heuristic': 0.353}}}
