"""Sign up, log in/out, password reset (Django's views), profile, API token.

``/accounts/unsubscribe/<token>/`` is served by ``games.unsubscribe`` (games/urls.py).
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import twofactor, views

app_name = "accounts"
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("signup/sent/", views.signup_done, name="signup-done"),
    path("verify/<str:uidb64>/<str:token>/", views.verify_email, name="verify-email"),
    path("verify/resend/", views.verify_email_resend, name="verify-email-resend"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", auth_views.PasswordChangeView.as_view(
        success_url=reverse_lazy("accounts:password_change_done")), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("password/reset/", views.PasswordResetView.as_view(
        success_url=reverse_lazy("accounts:password_reset_done"),
        email_template_name="registration/password_reset_email.txt",
        subject_template_name="registration/password_reset_subject.txt"),
        name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(
        success_url=reverse_lazy("accounts:password_reset_complete")),
        name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("profile/", views.profile, name="profile"),
    path("sessions/", views.sessions_page, name="sessions"),
    path("otp/", twofactor.otp_verify, name="otp"),
    path("two-step/", twofactor.two_step, name="two-step"),
    path("profile/email/", views.email_change, name="email-change"),
    path("email/confirm/<str:token>/", views.email_change_confirm, name="email-change-confirm"),
    path("profile/token/", views.api_token_create, name="api-token-create"),
    path("profile/token/<int:token_id>/revoke/", views.api_token_revoke,
         name="api-token-revoke"),
]
