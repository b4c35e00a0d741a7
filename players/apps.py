"""Django app config for players: ratings and records from the framework's signals, and
absence through ``games.registry.register_app`` (seat notes, held-back emails)."""

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players: ratings, records, absence"

    def ready(self) -> None:
        from games import signals
        from games.registry import AppHooks, register_app
        from players import receivers
        from players.away import away_seats, away_send_veto, seat_notes

        signals.phases_closed.connect(receivers.on_phases_closed,
                                      dispatch_uid="players.phases_closed")
        signals.match_finished.connect(receivers.on_match_finished,
                                       dispatch_uid="players.match_finished")
        register_app(AppHooks(label="players", seat_notes=seat_notes,
                              send_veto=away_send_veto, away_seats=away_seats))
