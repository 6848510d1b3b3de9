{ "kind": "feature", "dependsOn": ["auth", "database", "idempotency", "validation"] }
