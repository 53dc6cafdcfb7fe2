from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.urls import include, path, reverse
from oauth2_provider.views import ConnectDiscoveryInfoView


class DiscoveryWithRevocationAndIntrospection(ConnectDiscoveryInfoView):
    """OIDC discovery plus the RFC 7009 / RFC 7662 endpoints, which django-oauth-toolkit only lists in
    its RFC 8414 document, and its RFC 8628 device authorization endpoint, which it lists nowhere."""

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        import json

        document = json.loads(response.content)
        document["revocation_endpoint"] = request.build_absolute_uri(reverse("oauth2_provider:revoke-token"))
        document["introspection_endpoint"] = request.build_absolute_uri(reverse("oauth2_provider:introspect"))
        document["device_authorization_endpoint"] = request.build_absolute_uri(reverse("oauth2_provider:device-authorization"))
        return JsonResponse(document)


urlpatterns = [
    path("o/.well-known/openid-configuration", DiscoveryWithRevocationAndIntrospection.as_view()),
    path("o/.well-known/openid-configuration/", DiscoveryWithRevocationAndIntrospection.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
]
