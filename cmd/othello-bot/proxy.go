package main

// This file is the proxy every connection to Discord goes through.

import (
	"net/http"
	"net/url"
	"os"

	"othello-bot/config"
)

// proxyOf is the proxy every connection to Discord goes through: the
// configured one (its URL checked with the config), or the environment's
// (HTTPS_PROXY, NO_PROXY).
func proxyOf(c config.Config) func(*http.Request) (*url.URL, error) {
	if u, err := url.Parse(c.Proxy); c.Proxy != "" && err == nil {
		return http.ProxyURL(u)
	}
	return http.ProxyFromEnvironment
}

// viaProxyOf is an HTTP transport through proxyOf(c). It keeps up to
// idlePerHost connections to a host open between calls: Go's default of
// two means that past two calls at once to Discord, every call opens (and
// then closes) a TLS connection of its own, which cost more CPU than the
// moves it carried.
func viaProxyOf(c config.Config) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = proxyOf(c)
	t.MaxIdleConns, t.MaxIdleConnsPerHost = idlePerHost, idlePerHost
	return t
}

// idlePerHost is how many idle connections the bot keeps to one host.
const idlePerHost = 64

// viaProxy says, for an error, which proxy a connection went through.
func viaProxy(c config.Config) string {
	if c.Proxy != "" {
		u, _ := url.Parse(c.Proxy)
		return " through the proxy " + u.Redacted()
	}
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"} {
		if v := os.Getenv(k); v != "" {
			return " (" + k + " is set)"
		}
	}
	return ""
}
