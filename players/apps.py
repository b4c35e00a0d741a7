from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players: ratings, records, absence"

    def ready(self) -> None:
        from games import signals
        from games.services import notifications
        from players import receivers
        from games.lib import pages
        from games import selectors
        from players.away import away_seats, away_send_veto, seat_notes

        signals.phases_closed.connect(receivers.on_phases_closed,
                                      dispatch_uid="players.phases_closed")
        signals.match_finished.connect(receivers.on_match_finished,
                                       dispatch_uid="players.match_finished")
        if away_send_veto not in notifications.SEND_VETOES:
            notifications.SEND_VETOES.append(away_send_veto)
        if away_seats not in selectors.AWAY_SEATS:
            selectors.AWAY_SEATS.append(away_seats)
        if seat_notes not in pages.SEAT_NOTES:
            pages.SEAT_NOTES.append(seat_notes)
