module example.com/cnpg-platform

go 1.25

require (
	github.com/aws/constructs-go/constructs/v10 v10.8.1
	github.com/aws/jsii-runtime-go v1.140.0
	github.com/cdk8s-cnpg-i/cdk8s-cnpg-i-go/cdk8scnpgi v0.1.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.106
)
